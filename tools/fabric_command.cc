#include "fabric_command.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "fabric/fabric_rule.h"
#include "fabric/fabric_sim.h"
#include "fabric/localize.h"
#include "job/number_flags.h"
#include "runner/result_record.h"

namespace ccb::cli {
namespace {

constexpr const char* kModelWords = "a model of link rates and shared paths (ccbench fabric simulate): no packet was sent";

nlohmann::ordered_json findings_json(const fabric::Topology& t, const fabric::Localization& l) {
  auto out = nlohmann::ordered_json::array();
  for (const fabric::Finding& f : l.findings) {
    auto names = nlohmann::ordered_json::array();
    for (const fabric::ElementWeight& w : f.elements) names.push_back(t.element_name(w.element));
    const fabric::ElementWeight& w = f.elements.front();
    out.push_back({{"elements", names}, {"slow", w.slow}, {"crossing", w.crossing}, {"median_ratio", w.median_ratio}, {"explained", f.explained}});
  }
  return out;
}

void write_simulation(const std::string& path, const fabric::Topology& t, const fabric::Rounds& rounds,
                      const fabric::SimulationSettings& s, const fabric::SimulatedScan& scan, const fabric::Localization& l,
                      const std::vector<std::string>& lines, const std::string& plan) {
  nlohmann::ordered_json j;
  j["schema"] = "ccbench.fabric-simulation/1";
  j["model"] = kModelWords;
  j["ccbench_version"] = kCcbenchVersion;
  j["started_utc"] = utc_now_iso8601();
  j["topology"] = {{"source", t.source}, {"hosts", t.host_count()}, {"leaves", t.leaves.size()}, {"spines", t.spines.size()}};
  j["plan"] = plan;
  j["seed"] = s.seed;
  j["noise"] = s.noise;
  auto faults = nlohmann::ordered_json::array();
  for (const fabric::ElementFault& f : s.faults) faults.push_back({{"element", t.element_name(f.element)}, {"keeps", f.factor}});
  j["faults"] = faults;
  j["settings"] = {{"bw_test", "p2p_bidir"}, {"bw_bytes", s.test.bw_bytes}, {"window", s.test.window}, {"bw_iters", s.test.bw_iters},
                   {"lat_iters", s.test.lat_iters}, {"bw_frac", s.limits.bw_frac}, {"lat_factor", s.limits.lat_factor}, {"retests", s.retests}};
  j["rounds"] = rounds.size();
  j["plan_seconds"] = scan.plan_seconds;
  j["retest_seconds"] = scan.retest_seconds;
  j["retested"] = scan.retested.size();
  auto pairs = nlohmann::ordered_json::array();
  for (const judge::PairFigure& p : scan.final) pairs.push_back({p.a, p.b, p.bw_gbps, p.lat_us, p.path_gbps});
  j["pairs_columns"] = {"a", "b", "bw_gbps", "lat_us", "path_gbit_per_s"};
  j["pairs"] = pairs;
  j["findings"] = findings_json(t, l);
  auto unexplained = nlohmann::ordered_json::array();
  for (const judge::SlowPair& p : l.unexplained) unexplained.push_back({p.a, p.b});
  j["unexplained"] = unexplained;
  j["pass"] = l.pass();
  j["verdict"] = lines;
  write_output(check_output("--json", path), j.dump(1) + "\n");
}

}  // namespace

void FabricCommand::add_options(CLI::App& sub) {
  sub.require_subcommand(1, 1);
  CLI::App* sim = sub.add_subcommand("simulate", std::string("Run a scan on ") + kModelWords);
  add_fabric_flags(*sim, fabric_);
  sim->add_option("--fault", faults_, "ELEMENT:KEEPS, repeated: what every pair through it keeps (leaf2->spine1:0.5, h7:0.5, spine3:0.5; 0 cuts it)");
  sim->add_option("--noise", noise_, "Each figure slowed by 1 + |N(0, NOISE)|, drawn anew at every try")->check(finite_in(0, 1))->capture_default_str();
  sim->add_option("--retests", retests_, "Times a slow pair is measured again alone")->check(CLI::Range(0, 10))->capture_default_str();
  sim->add_option("--bw-frac", bw_frac_, "A pair below this share of a healthy path is slow")->check(finite_in(0, 1))->capture_default_str();
  sim->add_option("--lat-factor", lat_factor_, "A pair above this multiple of the least stack latency is slow")->check(finite_in(1, 1e6))->capture_default_str();
  sim->add_option("--bw-size", bw_size_, "The modelled bandwidth test's message size")->capture_default_str();
  sim->add_option("--window", window_, "... its messages in flight")->check(CLI::Range(1, 4096))->capture_default_str();
  sim->add_option("--bw-iters", bw_iters_, "... its iterations")->check(CLI::Range(1, 1000000))->capture_default_str();
  sim->add_option("--lat-iters", lat_iters_, "The modelled latency test's round trips")->check(CLI::Range(1, 10000000))->capture_default_str();
  sim->add_option("--json", json_, "Write the pairs, the findings and the verdict as JSON (ccbench.fabric-simulation/1)");
}

int FabricCommand::run(const CLI::App& sub) {
  (void)sub;
  if (!json_.empty()) check_output("--json", json_);
  const fabric::Topology t = fabric_of(fabric_);
  const fabric::ScanPlan plan = fabric::parse_plan(fabric_.plan);
  fabric::SimulationSettings s;
  s.test = pair_test_of(bw_size_, window_, bw_iters_, lat_iters_);
  s.noise = noise_;
  s.seed = fabric_.seed;
  s.retests = retests_;
  s.limits = {bw_frac_, lat_factor_};
  for (const std::string& f : faults_) s.faults.push_back(fabric::parse_fault(f, t));
  const fabric::Rounds rounds = fabric::plan_rounds(plan, t, fabric_.seed);
  std::printf("# ccbench fabric simulate: %s, plan %s, %zu rounds; %s\n", t.source.c_str(), plan.text().c_str(), rounds.size(), kModelWords);
  const fabric::SimulatedScan scan = fabric::simulate_scan(t, rounds, s);
  const fabric::Localization l = fabric::localize(t, scan.final, fabric::slow_on_fabric(t, scan.final, s.limits));
  const std::vector<std::string> lines = fabric::localization_lines(t, l);
  for (const std::string& line : lines) std::printf("%s\n", line.c_str());
  std::printf("# %zu pair tests, %zu measured again alone; the model's time: %.1f s of rounds, %.1f s of retests\n", scan.final.size(),
              scan.retested.size(), scan.plan_seconds, scan.retest_seconds);
  std::fflush(stdout);
  if (!json_.empty()) write_simulation(json_, t, rounds, s, scan, l, lines, plan.text());
  return l.pass() ? 0 : 1;
}

}  // namespace ccb::cli
