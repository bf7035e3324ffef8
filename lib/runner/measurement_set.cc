#include "runner/measurement_set.h"

#include <algorithm>
#include <numeric>

namespace ccb {
namespace {

bool same_key(const ResultRow& a, const ResultRow& b) {
  const RunOptions &x = a.options, &y = b.options;
  return a.profile == b.profile && a.what == b.what && a.step_algorithm == b.step_algorithm && x.collective == y.collective && x.algorithm == y.algorithm &&
         x.dtype == y.dtype && x.op == y.op && x.in_place == y.in_place && x.window == y.window && x.variant == y.variant && a.result.bytes == b.result.bytes;
}

}  // namespace

const SizeResult& MeasurementSet::Measurement::median_pass() const {
  std::vector<size_t> order(passes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return passes[a].busbw_gbps < passes[b].busbw_gbps; });
  return passes[order[(order.size() - 1) / 2]];
}

judge::MedianSummary MeasurementSet::Measurement::busbw() const {
  std::vector<double> v;
  for (const SizeResult& p : passes) v.push_back(p.busbw_gbps);
  return judge::summarize_median(v);
}

uint64_t MeasurementSet::Measurement::wrong() const {
  uint64_t n = 0;
  for (const SizeResult& p : passes) n += p.wrong;
  return n;
}

const MeasurementSet::Measurement& MeasurementSet::add(const ResultRow& row) {
  auto it = std::find_if(measurements_.begin(), measurements_.end(),
                         [&](const Measurement& m) { return same_key(m.row, row); });
  if (it == measurements_.end()) it = measurements_.insert(measurements_.end(), Measurement{row, {}});
  it->passes.push_back(row.result);
  return *it;
}

void MeasurementSet::replace(const ResultRow& row) {
  for (Measurement& m : measurements_)
    if (same_key(m.row, row)) m.passes.clear();
  add(row);
}

void MeasurementSet::restart(const ResultRow& row) {
  for (Measurement& m : measurements_)
    if (same_key(m.row, row)) {
      m.passes.clear();
      ++m.retries;
    }
}

const MeasurementSet::Step& MeasurementSet::add(const StepSummary& step) {
  auto it = std::find_if(steps_.begin(), steps_.end(), [&](const Step& s) {
    return s.summary.kind == step.kind && s.summary.name == step.name && s.summary.algorithm == step.algorithm;
  });
  if (it == steps_.end()) it = steps_.insert(steps_.end(), Step{step, {}});
  it->passes_us.push_back(step.comm_us);
  // The median pass's summary stands for the step (traces keep that pass's statistics).
  std::vector<double> sorted = it->passes_us;
  std::sort(sorted.begin(), sorted.end());
  if (step.comm_us == sorted[(sorted.size() - 1) / 2]) it->summary = step;
  return *it;
}

}  // namespace ccb
