// Which pairs a scan measures, round by round (`scan --plan`). A round is a set of
// disjoint pairs measured at once, written as judge::round_robin_partners writes it:
// partners[round][host] is whom the host meets, or the host itself when it sits out.
//
//  - full: every pair, by the circle method: n - 1 rounds.
//  - leaf-first[:K]: every pair within each leaf (all leaves at once), then cross-leaf
//    rounds until every uplink is crossed by at least K pairs (default 3), so a bad
//    uplink shows as several slow pairs and a bad host cable as slow pairs at home.
//  - sample:K: K rounds of pairs drawn at random (seeded), each drawn to cover what the
//    rounds before left uncovered; refused when K rounds cannot cover every host and
//    every uplink.
//
// The time a plan takes is predicted by the scan model (fabric_sim.h) on a healthy,
// quiet fabric: each pair's test as the flags set it, at its share of the cables it
// crosses; a round lasts as long as its slowest pair.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fabric/topology.h"

namespace ccb::fabric {

enum class PlanKind { kFull, kLeafFirst, kSample };

struct ScanPlan {
  PlanKind kind = PlanKind::kFull;
  int k = 0;  // leaf-first: crossings per uplink; sample: rounds
  std::string text() const;  // as --plan takes it
};

// "full", "leaf-first", "leaf-first:K", "sample:K"; throws kInvalidArgument naming --plan.
ScanPlan parse_plan(const std::string& text);

using Rounds = std::vector<std::vector<int>>;

Rounds plan_rounds(const ScanPlan& plan, const Topology& t, uint64_t seed);

// What the rounds cover: pairs, and the uplinks each pair crosses, of those some pair's
// route crosses at all (not an uplink of a leaf without hosts, nor one no route picks).
struct PlanCoverage {
  size_t pairs = 0;
  size_t uplinks = 0, uplinks_covered = 0;
  size_t min_uplink_crossings = 0;  // over the uplinks that exist
  size_t hosts_covered = 0;
};
PlanCoverage plan_coverage(const Rounds& rounds, const Topology& t);

// One pair test as the scan runs it (its flags): a bandwidth test of window x bytes,
// bw_iters times, both ways at once, and lat_iters round trips of 8 B.
struct PairTest {
  uint64_t bw_bytes = 1 << 20;
  int window = 16;
  int bw_iters = 20;
  int lat_iters = 300;
  double round_overhead_s = 0.002;  // the barrier and set-up around each round's two tests
};

double pair_test_seconds(const PairTest& test, double rate_gbps, double one_way_us);

}  // namespace ccb::fabric
