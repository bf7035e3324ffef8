// The pairwise scan's schedule and its judgement, as pure functions over figures that
// ranks measured (tools/scan_command.cc measures them).
//
// Schedule: the circle method. n hosts (n even) meet every other host once in n - 1
// rounds of n/2 disjoint pairs, so a scan takes n - 1 rounds, not n(n-1)/2; an odd n
// adds a dummy host, and whoever meets it sits the round out.
//
// Judgement, as ClusterKit judges its rounds: a pair is slow when its bandwidth is below
// bw_frac (0.93) of the median over all pairs, or its latency above lat_factor (2.1) x
// the minimum. A host slow with every peer is named as the host at fault (a NIC, its
// PCIe link or its cable); a slow pair between hosts that are otherwise fine is named as
// the cable or path between them. With 2 hosts the two cannot be told apart.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ccb::judge {

// partners[round][r]: whom rank r meets in that round; r itself: it sits out.
std::vector<std::vector<int>> round_robin_partners(int hosts);

using PairMatrix = std::vector<std::vector<double>>;  // [a][b] == [b][a]; the diagonal unused

struct ScanLimits {
  double bw_frac = 0.93;
  double lat_factor = 2.1;
};

struct SlowPair {
  int a = 0, b = 0;  // a < b
  bool slow_bw = false, slow_lat = false;
};

struct ScanVerdict {
  double median_bw = 0, min_lat = 0;
  std::vector<SlowPair> slow;      // every slow pair
  std::vector<int> bad_hosts;      // slow with every peer
  std::vector<SlowPair> bad_pairs; // slow pairs that no bad host explains
  bool pass() const { return slow.empty(); }
};

// One measured pair, as a plan that measures only some pairs (fabric/scan_plan.h) lists it.
struct PairFigure {
  int a = 0, b = 0;  // a < b
  double bw_gbps = 0, lat_us = 0;
  double path_gbps = 0;  // where a fabric map says: what the path could carry as the pair ran (0: not known)
};
// The pairs a matrix holds figures for: a cell that is not finite was not measured.
std::vector<PairFigure> measured_pairs(const PairMatrix& bw_gbps, const PairMatrix& lat_us);
// The rule's two references over the pairs measured: the median bandwidth, the minimum latency.
std::pair<double, double> median_bw_and_min_lat(const std::vector<PairFigure>& pairs);
std::vector<SlowPair> slow_among(const std::vector<PairFigure>& pairs, const ScanLimits& limits);

// Throws kInvalidArgument for fewer than 2 hosts or a matrix of another size. A host is
// named when it is slow with every peer it was measured with (2 peers at least).
ScanVerdict judge_pairs(const PairMatrix& bw_gbps, const PairMatrix& lat_us, const ScanLimits& limits);
// The slow pairs as they are before a retest: which pairs to measure again.
std::vector<SlowPair> slow_pairs(const PairMatrix& bw_gbps, const PairMatrix& lat_us, const ScanLimits& limits);

// How far a pair is from the rule: the lower of bandwidth / (bw_frac x median) and
// (lat_factor x minimum) / latency, so below 1 fails on whichever measure fails it.
double pair_margin(double bw_gbps, double lat_us, const ScanVerdict& v, const ScanLimits& limits);

// One line per finding, naming hosts by `labels` ("rank 2 (host c)"); one PASS line
// when there is none.
std::vector<std::string> verdict_lines(const ScanVerdict& v, const PairMatrix& bw_gbps, const PairMatrix& lat_us,
                                       const std::vector<std::string>& labels, const ScanLimits& limits);

}  // namespace ccb::judge
