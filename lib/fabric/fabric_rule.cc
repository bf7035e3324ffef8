#include "fabric/fabric_rule.h"

#include <algorithm>

#include "core/error.h"

namespace ccb::fabric {
namespace {

constexpr double kReferenceQuantile = 0.9;

double path_share(const Topology& t, const judge::PairFigure& p) {
  const double path_gbytes = (p.path_gbps > 0 ? p.path_gbps : t.pair_rate_gbps(p.a, p.b)) / 8;
  return path_gbytes > 0 ? p.bw_gbps / path_gbytes : 0;
}

double stack_us(const Topology& t, const judge::PairFigure& p) { return p.lat_us - t.pair_delay_us(p.a, p.b); }

}  // namespace

FabricReference fabric_reference(const Topology& t, const std::vector<judge::PairFigure>& pairs) {
  if (pairs.empty()) throw_invalid("the scan measured no pair");
  std::vector<double> shares;
  double least = stack_us(t, pairs.front());
  for (const judge::PairFigure& p : pairs) {
    shares.push_back(path_share(t, p));
    least = std::min(least, stack_us(t, p));
  }
  const auto at = shares.begin() + static_cast<long>(kReferenceQuantile * static_cast<double>(shares.size() - 1));
  std::nth_element(shares.begin(), at, shares.end());
  return {*at, std::max(least, 0.0)};
}

double reference_ratio(const Topology& t, const judge::PairFigure& p, const FabricReference& ref) {
  return ref.path_share > 0 ? path_share(t, p) / ref.path_share : 0;
}

std::vector<judge::SlowPair> slow_on_fabric(const Topology& t, const std::vector<judge::PairFigure>& pairs,
                                            const judge::ScanLimits& limits) {
  const FabricReference ref = fabric_reference(t, pairs);
  std::vector<judge::SlowPair> out;
  for (const judge::PairFigure& p : pairs) {
    judge::SlowPair s{p.a, p.b, reference_ratio(t, p, ref) < limits.bw_frac, stack_us(t, p) > limits.lat_factor * ref.min_stack_us};
    if (s.slow_bw || s.slow_lat) out.push_back(s);
  }
  return out;
}

}  // namespace ccb::fabric
