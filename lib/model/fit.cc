#include "model/fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/error.h"
#include "core/units.h"
#include "judge/statistics.h"
#include "model/least_squares.h"

namespace ccb::model {
namespace {

constexpr double kSplitAbove = 0.15;  // worst relative error that asks for a break
constexpr size_t kMinPoints = 3;      // sizes a fit needs (two parameters and a check)

const CostFormula& formula_of(const FitKey& k) {
  const CostFormula* f = find_formula(k.collective, k.algorithm);
  if (f == nullptr) throw_invalid("no cost model for " + k.describe());
  return *f;
}

double message_bytes(const CostFormula& f, const FitPoint& p) {
  const CostTerms t = f.terms(p.ranks, p.bytes);
  return t.steps > 0 ? t.wire_bytes / t.steps : t.wire_bytes;
}

FitSegment fit_segment(const CostFormula& f, const std::vector<FitPoint>& pts) {
  std::vector<Observation> obs;
  for (const FitPoint& p : pts) {
    const CostTerms t = f.terms(p.ranks, p.bytes);
    obs.push_back({{t.steps, t.wire_bytes}, p.time_us});
  }
  FitSegment s;
  s.from_message = message_bytes(f, pts.front());
  s.to_message = message_bytes(f, pts.back());
  if (auto x = fit_relative(obs)) s.params = {(*x)[0], (*x)[1], 0};
  double mean = 0;
  for (const FitPoint& p : pts) mean += p.time_us / static_cast<double>(pts.size());
  double ss_res = 0, ss_tot = 0;
  for (const FitPoint& p : pts) {
    const double predicted = predict_us(f.terms(p.ranks, p.bytes), s.params);
    ss_res += (predicted - p.time_us) * (predicted - p.time_us);
    ss_tot += (p.time_us - mean) * (p.time_us - mean);
    const double error = std::abs(predicted - p.time_us) / p.time_us;
    if (error > s.worst_error) s.worst_error = error, s.worst_bytes = p.bytes;
  }
  s.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
  return s;
}

double relative_sse(const CostFormula& f, const FitSegment& s, const std::vector<FitPoint>& pts) {
  double sse = 0;
  for (const FitPoint& p : pts) {
    const double e = (predict_us(f.terms(p.ranks, p.bytes), s.params) - p.time_us) / p.time_us;
    sse += e * e;
  }
  return sse;
}

size_t distinct_sizes(const std::vector<FitPoint>& pts) {
  std::set<double> sizes;
  for (const FitPoint& p : pts) sizes.insert(p.bytes);
  return sizes.size();
}

// The best single break between two sizes, each side with kMinPoints sizes or more;
// empty when none cuts the whole range's squared relative error by a quarter.
std::vector<FitSegment> split_once(const CostFormula& f, const std::vector<FitPoint>& pts, const FitSegment& whole) {
  const double whole_sse = relative_sse(f, whole, pts);
  std::vector<FitSegment> best;
  double best_sse = whole_sse * 0.75;
  for (size_t k = 1; k < pts.size(); ++k) {
    if (message_bytes(f, pts[k]) == message_bytes(f, pts[k - 1])) continue;  // a break falls between messages
    const std::vector<FitPoint> low(pts.begin(), pts.begin() + static_cast<long>(k));
    const std::vector<FitPoint> high(pts.begin() + static_cast<long>(k), pts.end());
    if (distinct_sizes(low) < kMinPoints || distinct_sizes(high) < kMinPoints) continue;
    FitSegment a = fit_segment(f, low), b = fit_segment(f, high);
    const double sse = relative_sse(f, a, low) + relative_sse(f, b, high);
    if (sse < best_sse) best_sse = sse, best = {a, b};
  }
  return best;
}

// The bytes a collective reduces per byte it sends (0: it does not reduce).
double reduce_per_wire_byte(const FitKey& k) {
  const CostTerms t = formula_of(k).terms(std::max(k.ranks, 4), 1 << 20);
  return t.wire_bytes > 0 ? t.reduce_bytes / t.wire_bytes : 0;
}

const GroupFit* plain_sibling(const std::vector<GroupFit>& groups, const FitKey& k) {
  for (const char* name : {"all_gather", "broadcast", "all_to_all"})
    for (const GroupFit& g : groups)
      if (g.key.collective == name && g.key.transport == k.transport && g.key.ranks == k.ranks) return &g;
  return nullptr;
}

// Splits each reducing group's per-byte cost into beta (the sibling's) and gamma.
void split_gamma(std::vector<GroupFit>& groups) {
  for (GroupFit& g : groups) {
    const double ratio = reduce_per_wire_byte(g.key);
    if (ratio == 0) {
      g.gamma_source = "none: " + g.key.collective + " does not reduce";
      continue;
    }
    const GroupFit* plain = plain_sibling(groups, g.key);
    if (plain == nullptr) {
      g.gamma_source = "folded into beta: no all_gather, broadcast or all_to_all on " + g.key.transport +
                       " with these ranks to tell the wire from the reduction";
      continue;
    }
    bool split = false;
    for (FitSegment& s : g.segments) {
      const double beta = plain->segment_at(s.to_message).params.beta_us_per_byte;
      const double gamma = (s.params.beta_us_per_byte - beta) / ratio;
      if (gamma > 0) s.params.beta_us_per_byte = beta, s.params.gamma_us_per_byte = gamma, split = true;
    }
    // Where it costs no more per byte than its sibling, the reduction is not seen.
    g.gamma_source = split ? "beta from " + plain->key.describe() + ", gamma the rest"
                           : "none seen: no dearer per byte than " + plain->key.describe();
  }
}

void check_one_machine(const std::vector<judge::ResultFile>& files) {
  for (const judge::ResultFile& f : files)
    if (f.machine != files.front().machine)
      throw_invalid("model fit: " + files.front().path + " was measured on " + files.front().machine + " and " + f.path +
                    " on " + f.machine + ": fit each machine's results on their own");
}

}  // namespace

std::string FitKey::describe() const {
  return collective + " " + algorithm + " " + transport + " " + (ranks > 0 ? std::to_string(ranks) + " ranks" : "all ranks") +
         (leg.empty() ? "" : " (" + leg + ")");
}

const FitSegment& GroupFit::segment_at(double message) const {
  for (const FitSegment& s : segments)
    if (message <= s.to_message) return s;
  return segments.back();
}

const FitSegment& GroupFit::segment_for(int ranks, double bytes) const {
  return segment_at(message_bytes(formula_of(key), {ranks, bytes, 0}));
}

double GroupFit::largest_bytes() const {
  double top = 0;
  for (const FitPoint& p : points) top = std::max(top, p.bytes);
  return top;
}

double GroupFit::predict_us(int ranks, double bytes) const {
  return model::predict_us(key.collective, key.algorithm, ranks, bytes, segment_for(ranks, bytes).params);
}

const GroupFit* FitReport::find(const FitKey& key) const {
  for (const GroupFit& g : groups)
    if (std::tie(g.key.transport, g.key.collective, g.key.algorithm, g.key.ranks, g.key.leg) ==
        std::tie(key.transport, key.collective, key.algorithm, key.ranks, key.leg))
      return &g;
  return nullptr;
}

GroupFit fit_group(const FitKey& key, std::vector<FitPoint> points) {
  const CostFormula& f = formula_of(key);
  if (distinct_sizes(points) < kMinPoints)
    throw_invalid("model fit: " + key.describe() + " has " + std::to_string(distinct_sizes(points)) +
                  " size(s); a fit needs 3 or more: measure a sweep (ccbench run -b 64K -e 64M, or --sizes)");
  std::sort(points.begin(), points.end(), [&f](const FitPoint& a, const FitPoint& b) {
    return std::make_tuple(message_bytes(f, a), a.bytes, a.ranks) < std::make_tuple(message_bytes(f, b), b.bytes, b.ranks);
  });
  GroupFit g{key, std::string(f.text), "", {}, points, {}};
  for (const FitPoint& p : points)
    if (std::find(g.ranks_measured.begin(), g.ranks_measured.end(), p.ranks) == g.ranks_measured.end())
      g.ranks_measured.push_back(p.ranks);
  std::sort(g.ranks_measured.begin(), g.ranks_measured.end());
  const FitSegment whole = fit_segment(f, points);
  g.segments = {whole};
  if (whole.worst_error > kSplitAbove)
    if (std::vector<FitSegment> parts = split_once(f, points, whole); !parts.empty()) g.segments = parts;
  return g;
}

// (collective, transport, algorithm, ranks, leg)
using LegPoints = std::map<std::tuple<std::string, std::string, std::string, int, std::string>, std::vector<FitPoint>>;

// How each two-level collective's legs are the flat collectives they run
// (algo/hier_collectives.cc), for a buffer of S bytes over hosts of K ranks.
struct HierShape {
  const char* collective;
  bool within_before, within_after;  // the within-host timings that make its within leg (S bytes)
  bool across_share;                 // across hosts: each local rank's 1/K share (S/K), else all S
};
// Broadcast has none: its legs are timed on rank 0, and a root's leg ends when its sends
// are handed over (to a socket's buffer, or a ring), not when the other hosts have them.
constexpr HierShape kHierShapes[] = {
    {"allreduce", true, true, true},        // reduce-scatter and all-gather: a ring AllReduce's cost
    {"reduce_scatter", true, false, true},  // reduce-scatter within, then across
    {"all_gather", false, true, true},      // all-gather across, then within
};

// An --algo hier row's two legs, as the flat collectives they are (fit.h).
static void add_legs(const judge::ResultFile& file, const judge::Measured& m, LegPoints& legs) {
  if (!m.legs || m.in_place || file.ranks_per_host < 1) return;
  const auto shape = std::find_if(std::begin(kHierShapes), std::end(kHierShapes),
                                  [&](const HierShape& s) { return m.collective == s.collective; });
  if (shape == std::end(kHierShapes)) return;
  const int per_host = file.ranks_per_host, hosts = file.hosts;
  const judge::HierLegs& l = *m.legs;
  const double bytes = static_cast<double>(m.bytes);
  const double within = (shape->within_before ? l.intra_before_us : 0) + (shape->within_after ? l.intra_after_us : 0);
  const std::string within_algorithm = l.intra_algorithm.empty() ? "ring" : l.intra_algorithm;
  if (per_host > 1 && within > 0 && find_formula(m.collective, within_algorithm) != nullptr)
    legs[{m.collective, l.intra_transport.empty() ? "shm" : l.intra_transport, within_algorithm, per_host, kLegWithinHosts}]
        .push_back({per_host, bytes, within});
  if (hosts > 1 && l.inter_us > 0 && find_formula(m.collective, l.inter_algorithm) != nullptr)
    legs[{m.collective, m.transport, l.inter_algorithm, hosts, kLegAcrossHosts}].push_back(
        {hosts, shape->across_share ? bytes / per_host : bytes, l.inter_us});
}

FitReport fit_results(const std::vector<judge::ResultFile>& files, const std::vector<int>& ranks_filter) {
  if (files.empty()) throw_invalid("model fit: give result files (ccbench run --json)");
  check_one_machine(files);
  FitReport report{files.front().machine, files.front().host, {}, {}};
  std::map<std::tuple<std::string, std::string, std::string, int>, std::vector<FitPoint>> by_group;
  LegPoints legs;
  for (const judge::ResultFile& file : files) {
    report.files.push_back(file.path);
    for (const judge::Measured& m : file.results) {
      if (!m.profile.empty() || m.in_place || !m.variant.empty() || m.time_us.empty()) continue;
      if (!ranks_filter.empty() && std::find(ranks_filter.begin(), ranks_filter.end(), m.ranks) == ranks_filter.end()) continue;
      add_legs(file, m, legs);
      if (find_formula(m.collective, m.algorithm) == nullptr) continue;
      const double t = judge::summarize_median(m.time_us).median;
      if (t <= 0) continue;
      by_group[{m.transport, m.collective, m.algorithm, m.ranks}].push_back({m.ranks, static_cast<double>(m.bytes), t});
    }
  }
  if (by_group.empty() && legs.empty())
    throw_invalid("model fit: no sweep in the files has a cost model (sweeps of allreduce, reduce_scatter, all_gather, "
                  "broadcast, reduce, all_to_all, gather, scatter, send_recv, flat; of allreduce, reduce_scatter and "
                  "all_gather, --algo hier)");
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<FitPoint>> across;
  std::map<std::tuple<std::string, std::string, std::string>, std::set<int>> world_sizes;
  for (const auto& [k, pts] : by_group) {
    const auto& [transport, collective, algorithm, ranks] = k;
    report.groups.push_back(fit_group({transport, collective, algorithm, ranks, ""}, pts));
    auto& all = across[{transport, collective, algorithm}];
    all.insert(all.end(), pts.begin(), pts.end());
    world_sizes[{transport, collective, algorithm}].insert(ranks);
  }
  for (const auto& [k, pts] : across)
    if (world_sizes[k].size() > 1)
      report.groups.push_back(fit_group({std::get<0>(k), std::get<1>(k), std::get<2>(k), 0, ""}, pts));
  // A leg whose algorithm changed with the size (--inter-algo auto) may hold fewer sizes
  // than a fit needs; it is left out, where a flat group would be an error.
  for (const auto& [k, pts] : legs) {
    const auto& [collective, transport, algorithm, ranks, leg] = k;
    if (distinct_sizes(pts) >= kMinPoints) report.groups.push_back(fit_group({transport, collective, algorithm, ranks, leg}, pts));
  }
  if (report.groups.empty())
    throw_invalid("model fit: each leg of the hier sweep ran one algorithm at fewer than 3 sizes: measure more sizes "
                  "(ccbench run --algo hier -b 64K -e 64M)");
  split_gamma(report.groups);
  return report;
}

}  // namespace ccb::model
