// The scan's rule on a fabric whose map is known. Each pair is judged against what its
// own path can carry, not against the median pair: on a small fabric most pairs may
// cross the broken part (two leaves and one spine: every cross-leaf pair), and then the
// median pair is a slow one.
//  - bandwidth: a pair's share of what its path could carry as it ran (PairFigure's
//    path_gbps: its scarcest cable's share in its round, or alone; without it, the
//    slowest cable's rate) is slow below bw_frac x the reference, the 90th percentile of
//    those shares over the pairs measured: what a healthy path delivers on this fabric,
//    as long as a tenth of the pairs are healthy. So the contention of an oversubscribed
//    fabric's rounds is expected, and a fault is not hidden by it;
//  - latency: a pair's one-way latency less its cables' delays is slow above
//    lat_factor x the least of that over the pairs.
#pragma once
#include <vector>

#include "fabric/topology.h"
#include "judge/pair_scan.h"

namespace ccb::fabric {

struct FabricReference {
  double path_share = 0;   // the 90th percentile of bandwidth / path rate
  double min_stack_us = 0; // the least latency once the cables' delays are taken off
};

FabricReference fabric_reference(const Topology& t, const std::vector<judge::PairFigure>& pairs);
// A pair's bandwidth as a multiple of the reference: 1 is a healthy path, 0.5 half of one.
double reference_ratio(const Topology& t, const judge::PairFigure& p, const FabricReference& ref);
std::vector<judge::SlowPair> slow_on_fabric(const Topology& t, const std::vector<judge::PairFigure>& pairs,
                                            const judge::ScanLimits& limits);

}  // namespace ccb::fabric
