// The scan on a known fabric (`scan --topology FILE [--plan P]`): rank r is the file's
// host r; the plan picks the rounds; the rule is fabric_rule.h's, each pair against what
// its own path carries; the verdict names the element the slow pairs share
// (fabric/localize.h). Without --topology the scan is as it always was: every pair, one
// switch, hosts and pairs named.
#pragma once
#include <optional>
#include <vector>

#include "fabric/scan_plan.h"
#include "fabric/topology.h"
#include "scan_command.h"

namespace ccb::cli {

// The topology a scan of `world` ranks runs on, checked before any rank starts; nullopt
// without --topology. Throws kInvalidArgument for fabric flags that only --dry-run takes,
// a --plan without --topology, or a file of another host count.
std::optional<fabric::Topology> scan_topology(const ScanCommand& c, int world);
fabric::Rounds scan_rounds(const ScanCommand& c, const std::optional<fabric::Topology>& t, int world);
std::vector<judge::SlowPair> scan_slow_pairs(const std::optional<fabric::Topology>& t, const PairFigures& f, const judge::ScanLimits& limits);
// The verdict as the tomography gives it: the findings, and the slow pairs none explains.
void judge_on_fabric(const fabric::Topology& t, ScanOutcome& s);

}  // namespace ccb::cli
