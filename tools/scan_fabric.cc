#include "scan_fabric.h"

#include "core/error.h"
#include "fabric/fabric_rule.h"
#include "fabric/localize.h"
#include "fabric/topology_file.h"

namespace ccb::cli {

std::optional<fabric::Topology> scan_topology(const ScanCommand& c, int world) {
  const FabricFlags& f = c.fabric;
  if (f.hosts || f.leaves || f.spines || !f.uplink_rate.empty())
    throw_invalid("--hosts, --leaves, --spines and --uplink-rate describe a fabric for --dry-run; a scan's hosts are its ranks: give --topology FILE");
  if (f.topology.empty()) {
    if (f.plan != "full") throw_invalid("--plan " + f.plan + " picks pairs by leaf and uplink: give the fabric with --topology FILE");
    return std::nullopt;
  }
  fabric::Topology t = fabric::load_topology(f.topology);
  if (t.host_count() != world)
    throw_invalid("--topology " + f.topology + " lists " + std::to_string(t.host_count()) + " hosts, but the scan has " + std::to_string(world) +
                  " ranks: start one rank per host of the file, rank r on its host r");
  fabric::parse_plan(f.plan);
  return t;
}

fabric::Rounds scan_rounds(const ScanCommand& c, const std::optional<fabric::Topology>& t, int world) {
  if (!t) return judge::round_robin_partners(world);
  return fabric::plan_rounds(fabric::parse_plan(c.fabric.plan), *t, c.fabric.seed);
}

std::vector<judge::SlowPair> scan_slow_pairs(const std::optional<fabric::Topology>& t, const PairFigures& f, const judge::ScanLimits& limits) {
  if (!t) return judge::slow_pairs(f.bw_gbps, f.lat_us, limits);
  return fabric::slow_on_fabric(*t, judge::measured_pairs(f.bw_gbps, f.lat_us), limits);
}

void judge_on_fabric(const fabric::Topology& t, ScanOutcome& s) {
  const std::vector<judge::PairFigure> pairs = judge::measured_pairs(s.final.bw_gbps, s.final.lat_us);
  s.verdict.slow = fabric::slow_on_fabric(t, pairs, s.limits);
  const fabric::Localization l = fabric::localize(t, pairs, s.verdict.slow);
  s.verdict.bad_hosts.clear();
  for (const fabric::Finding& f : l.findings)
    for (const fabric::ElementWeight& w : f.elements)
      if (t.kind(w.element) == fabric::ElementKind::kHostCable) s.verdict.bad_hosts.push_back(static_cast<int>(w.element));
  s.verdict.bad_pairs = l.unexplained;
  s.lines = fabric::localization_lines(t, l);
  for (const fabric::Finding& f : l.findings) {
    std::vector<std::string> names;
    for (const fabric::ElementWeight& w : f.elements) names.push_back(t.element_name(w.element));
    s.findings.push_back(names);
  }
}

}  // namespace ccb::cli
