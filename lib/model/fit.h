// `ccbench model fit`: the alpha-beta-gamma cost (cost_formulas.h) of each measured
// (transport, collective, algorithm, world size), fitted to a sweep's median times by
// least squares in relative error.
//
// Within one collective the reduction's bytes are a fixed multiple of the wire bytes
// (ring AllReduce: G = B/2), so beta and gamma cannot be told apart from its sweep
// alone. The fit takes beta from a collective that moves the same bytes without
// reducing (all_gather, else broadcast or all_to_all) measured on the same transport
// and ranks, and gamma from what the reducing one takes beyond it; with no such
// sibling, gamma is 0 and beta carries the reduction (the fit says which).
//
// Where one formula does not fit the whole range (worst error over 15%: the step from
// eager to rendezvous, the chunking, TCP's window), the range is split once where that
// fits best (when that cuts the squared relative error by a quarter or more). The split
// is by the message one step sends (B / A: a ring's S/n), since
// that, not the buffer, is what a transport's regime turns on; so one break holds for
// every world size.
// With several world sizes measured, each collective also gets one fit over all of
// them ("ranks": 0), which projections and `model validate` use.
#pragma once
#include <string>
#include <vector>

#include "judge/result_file.h"
#include "model/cost_formulas.h"

namespace ccb::model {

// An --algo hier sweep is also fitted leg by leg, each leg as the flat collective it is
// (fit.cc's kHierShapes). AllReduce: within a host, the ring reduce-scatter and
// all-gather (a ring AllReduce of the whole buffer over the host's ranks, on --intra's
// transport); across hosts, each local rank's AllReduce of its 1/K share over the hosts
// by --inter-algo. ReduceScatter and AllGather: a ring of the same collective within a
// host over the whole buffer, and one across hosts over the 1/K share. Broadcast's legs
// are not fitted: rank 0 times them, and a root's leg ends when its sends are handed over.
inline constexpr const char* kLegWithinHosts = "hier within hosts";
inline constexpr const char* kLegAcrossHosts = "hier across hosts";

struct FitKey {
  std::string transport, collective, algorithm;
  int ranks = 0;  // 0: every world size measured, fitted together
  std::string leg;  // "" for a flat sweep; kLegWithinHosts or kLegAcrossHosts
  std::string describe() const;  // "allreduce ring tcp 4 ranks", "allreduce ring shm 2 ranks (hier within hosts)"
};

struct FitPoint {
  int ranks = 0;
  double bytes = 0, time_us = 0;
};

struct FitSegment {
  double from_message = 0, to_message = 0;  // the per-step messages it covers, bytes
  CostParams params;
  double r2 = 0;             // of the times
  double worst_error = 0;    // the largest |predicted - measured| / measured
  double worst_bytes = 0;    // where it is
};

struct GroupFit {
  FitKey key;
  std::string formula;
  std::string gamma_source;  // where gamma came from, in words
  std::vector<int> ranks_measured;
  std::vector<FitPoint> points;
  std::vector<FitSegment> segments;  // one, or two where the formula breaks
  const FitSegment& segment_for(int ranks, double bytes) const;
  const FitSegment& segment_at(double message) const;
  double largest_bytes() const;  // the largest buffer measured
  double predict_us(int ranks, double bytes) const;
};

struct FitReport {
  std::string machine, host;
  std::vector<std::string> files;
  std::vector<GroupFit> groups;
  // The group of this key, nullptr when none.
  const GroupFit* find(const FitKey& key) const;
};

// Fits every group in the sweeps of the files (profile entries, in-place calls and a
// transport sweep's variants left out). `ranks_filter` (empty: all) keeps only those
// world sizes. Throws kInvalidArgument naming the problem and the fix: results of
// mixed machines, a group with fewer than 3 sizes, nothing with a cost formula.
// A hier sweep's legs are groups of their own (FitKey::leg), fitted per world size.
FitReport fit_results(const std::vector<judge::ResultFile>& files, const std::vector<int>& ranks_filter = {});
// One group's points, gamma folded into beta (fit_results splits it).
GroupFit fit_group(const FitKey& key, std::vector<FitPoint> points);

// A fit not to be trusted, as the reason ("" when it can be): a segment whose R2 is below
// kMinTrustedR2 or whose worst error is above kMaxTrustedError, or a latency fitted as 0
// over the smallest messages (the sizes start too large to see it, and then no time
// would grow with the ranks). `fit` flags it; `project` refuses it unless told.
constexpr double kMinTrustedR2 = 0.9;
constexpr double kMaxTrustedError = 0.30;
std::string distrust(const GroupFit& g);

std::string fit_json(const FitReport& r);  // schema "ccbench.fit/1"
// Throws kInvalidArgument naming `source` when the text is not a fit.
FitReport fit_from_json(const std::string& text, const std::string& source);
std::string fit_table(const FitReport& r);  // for people: a line per group and segment

}  // namespace ccb::model
