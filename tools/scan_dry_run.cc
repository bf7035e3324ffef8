// `scan --plan P --dry-run`: what a plan would measure on a fabric and how long it would
// take, predicted by the scan model on a healthy, quiet fabric (fabric/fabric_sim.h);
// nothing is measured.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "fabric/fabric_sim.h"
#include "scan_command.h"

namespace ccb::cli {
namespace {

size_t pairs_in(const std::vector<int>& round) {
  size_t n = 0;
  for (size_t a = 0; a < round.size(); ++a) n += round[a] > static_cast<int>(a);
  return n;
}

void write_plan_json(const std::string& path, const fabric::Topology& t, const fabric::ScanPlan& plan, const fabric::Rounds& rounds,
                     double seconds) {
  nlohmann::ordered_json j;
  j["schema"] = "ccbench.scan-plan/1";
  j["topology"] = t.source;
  j["plan"] = plan.text();
  j["predicted_seconds"] = seconds;
  auto out = nlohmann::ordered_json::array();
  for (const auto& r : rounds) {
    auto pairs = nlohmann::ordered_json::array();
    for (size_t a = 0; a < r.size(); ++a)
      if (r[a] > static_cast<int>(a)) pairs.push_back({t.hosts[a], t.hosts[static_cast<size_t>(r[a])]});
    out.push_back(pairs);
  }
  j["rounds"] = out;
  write_output(check_output("--json", path), j.dump(1) + "\n");
}

}  // namespace

int run_scan_dry_run(const ScanCommand& c) {
  if (!c.base.json_path.empty()) check_output("--json", c.base.json_path);
  const fabric::Topology t = fabric_of(c.fabric);
  const fabric::ScanPlan plan = fabric::parse_plan(c.fabric.plan);
  const fabric::PairTest test = pair_test_of(c.bw_size, c.window, c.bw_iters, c.lat_iters);
  const fabric::Rounds rounds = fabric::plan_rounds(plan, t, c.fabric.seed);
  const fabric::SimulationSettings quiet;
  std::printf("# ccbench scan --plan %s --dry-run on %s: nothing runs; times from a model of link rates and shared paths\n",
              plan.text().c_str(), t.source.c_str());
  std::printf("# %5s %7s %12s\n", "round", "pairs", "predicted s");
  double total = 0;
  for (size_t i = 0; i < rounds.size(); ++i) {
    const double s = fabric::predicted_plan_seconds(t, {rounds[i]}, test, quiet.stack_us);
    total += s;
    std::printf("  %5zu %7zu %12.3f\n", i + 1, pairs_in(rounds[i]), s);
  }
  const fabric::PlanCoverage cover = fabric::plan_coverage(rounds, t);
  std::printf("plan %s: %zu rounds, %zu pair tests; %zu of %d hosts and %zu of %zu uplinks measured (each uplink crossed %zu times at least); "
              "predicted %.1f s on a healthy fabric, before any retest (each pair test: %s x %d both ways, %d times, and %d round trips of 8 B)\n",
              plan.text().c_str(), rounds.size(), cover.pairs, cover.hosts_covered, t.host_count(), cover.uplinks_covered, cover.uplinks,
              cover.min_uplink_crossings, total, c.bw_size.c_str(), c.window, c.bw_iters, c.lat_iters);
  if (!c.base.json_path.empty()) write_plan_json(c.base.json_path, t, plan, rounds, total);
  return 0;
}

}  // namespace ccb::cli
