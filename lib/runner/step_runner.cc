#include "runner/step_runner.h"

#include <algorithm>
#include <map>
#include <memory>

#include "core/checked.h"
#include "core/error.h"
#include "runner/rank_report.h"

namespace ccb {

uint64_t padded_bytes(CollectiveKind op, DataType t, int ranks, uint64_t bytes) {
  return checked_round_up(bytes, describe(op).unit_bytes(t, ranks), "a size padded to whole elements per rank");
}

RunOptions for_collective(const RunOptions& base, CollectiveKind op, DataType t) {
  RunOptions o = base;
  o.collective = op;
  o.dtype = t;
  const CollectiveDescriptor& d = describe(op);
  if (!d.supports(o.algorithm)) o.algorithm = d.algorithms.front();  // what the step asks, where it exists
  return o;
}

double run_profile(Communicator& comm, Bootstrap& boot, const Profile& p, const RunOptions& base,
                   const std::function<void(const ProfileRow&)>& on_row) {
  // Entries grouped by (op, type), in the order the step first calls each, so that one
  // runner's buffers serve a whole group.
  using Key = std::pair<CollectiveKind, DataType>;
  std::vector<std::pair<Key, std::vector<const ProfileEntry*>>> groups;
  for (const auto& e : p.entries) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == Key{e.op, e.dtype}; });
    if (it == groups.end()) it = groups.insert(groups.end(), {Key{e.op, e.dtype}, {}});
    it->second.push_back(&e);
  }
  double step_us = 0;
  for (const auto& [key, entries] : groups) {
    RunOptions o = for_collective(base, key.first, key.second);
    CollectiveRunner runner(comm, boot, o);
    for (const ProfileEntry* e : entries) {
      ProfileRow row{*e, o, runner.run(padded_bytes(e->op, e->dtype, comm.size(), e->bytes))};
      row.options.algorithm = row.result.algorithm;  // what auto chose for this entry
      step_us += static_cast<double>(e->count) * row.result.time_us;
      on_row(row);
    }
  }
  return step_us;
}

StepReplay::StepReplay(Communicator& comm, Bootstrap& boot, std::vector<TraceCall> calls, RunOptions base)
    : comm_(comm), boot_(boot), calls_(std::move(calls)), base_(std::move(base)) {}

StepReplay::~StepReplay() = default;

CollectiveRunner& StepReplay::runner_for(const TraceCall& c) {
  auto& r = runners_[{c.op, c.dtype}];
  if (!r) r = std::make_unique<CollectiveRunner>(comm_, boot_, for_collective(base_, c.op, c.dtype));
  return *r;
}

uint64_t StepReplay::bytes_of(const TraceCall& c) const { return padded_bytes(c.op, c.dtype, comm_.size(), c.bytes); }

uint64_t StepReplay::bytes() const {
  uint64_t total = 0;
  for (const TraceCall& c : calls_) total = checked_add(total, c.bytes, "the bytes of a step");
  return total;
}

uint64_t StepReplay::prepare() {
  uint64_t wrong = 0;
  for (const TraceCall& c : calls_) wrong += runner_for(c).prepare(bytes_of(c));
  return wrong;
}

double StepReplay::pass_seconds() {
  double total = 0;
  for (const TraceCall& c : calls_) {
    CollectiveRunner& r = runner_for(c);
    r.resize(bytes_of(c));
    total += r.time_one();
  }
  return total;
}

std::vector<TraceCall> step_calls(const Profile& p, uint64_t max_calls) {
  if (p.calls_per_step() > max_calls)
    throw_invalid(p.name + " makes " + std::to_string(p.calls_per_step()) + " calls per step, more than the " +
                  std::to_string(max_calls) + " a replay takes: use a smaller micro_batches or fewer layers");
  std::vector<TraceCall> out;
  for (const ProfileEntry& e : p.entries)
    for (uint64_t i = 0; i < e.count; ++i) out.push_back(TraceCall{e.op, e.bytes, e.dtype});
  return out;
}

TraceResult replay_trace(Communicator& comm, Bootstrap& boot, const std::vector<TraceCall>& calls,
                         const RunOptions& base, int passes) {
  StepReplay replay(comm, boot, calls, base);
  RankReport mine;
  mine.wrong = replay.prepare();
  boot.barrier();
  for (int pass = 0; pass < passes; ++pass) mine.iter_us.push_back(replay.pass_seconds() * 1e6);
  CombinedReport all = exchange_reports(boot, mine);
  return TraceResult{calls.size(), passes, all.wrong, all.latency_us};
}

}  // namespace ccb
