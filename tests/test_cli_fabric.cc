// The fabric from the command line: a scan planned for a fleet (--dry-run), a scan of a
// fleet answered by the model (fabric simulate), and a bad topology refused in one line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process_util.h"
#include "temp_dir.h"

using namespace ccb::test;

TEST_CASE("scan --plan leaf-first --dry-run --hosts 1024 prints a plan that covers every uplink, and runs nothing", "[cli][fabric]") {
  ProcessResult r = run_process(ccbench({"scan", "--plan", "leaf-first", "--dry-run", "--hosts", "1024", "--leaves", "32", "--spines", "4"}));
  INFO(r.output.substr(r.output.size() > 600 ? r.output.size() - 600 : 0));
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("nothing runs") && Catch::Contains("1024 of 1024 hosts and 128 of 128 uplinks measured") &&
                           Catch::Contains("predicted"));
  ProcessResult plan_alone = run_process(ccbench({"scan", "--np", "2", "--plan", "leaf-first"}));
  CHECK(plan_alone.status == 2);
  CHECK_THAT(plan_alone.output, Catch::Contains("give the fabric with --topology FILE"));
}

TEST_CASE("fabric simulate names a faulted uplink, host cable or spine at 1,024 hosts, and nothing on a healthy fabric", "[cli][fabric]") {
  TempDir d;
  const std::vector<std::string> fleet{"fabric", "simulate", "--hosts", "1024", "--leaves", "32", "--spines", "4", "--plan", "leaf-first"};
  auto with = [&fleet](std::vector<std::string> more) {
    std::vector<std::string> all = fleet;
    all.insert(all.end(), more.begin(), more.end());
    return all;
  };
  ProcessResult up = run_process(ccbench(with({"--fault", "leaf7->spine2:0.5", "--json", d / "sim.json"})));
  CHECK(up.status == 1);
  CHECK_THAT(up.output, Catch::Contains("scan: FAIL: leaf7 -> spine2 uplink:") && Catch::Contains("model of link rates"));
  std::ifstream in(d / "sim.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  CHECK(j["model"].get<std::string>().find("no packet was sent") != std::string::npos);
  CHECK(j["findings"].size() == 1);
  CHECK(j["findings"][0]["elements"] == nlohmann::json{"leaf7 -> spine2 uplink"});
  ProcessResult host = run_process(ccbench(with({"--fault", "h300:0.5"})));
  CHECK(host.status == 1);
  CHECK_THAT(host.output, Catch::Contains("scan: FAIL: host h300's cable (h300 - leaf10)"));
  ProcessResult clean = run_process(ccbench(fleet));
  CHECK(clean.status == 0);
  CHECK_THAT(clean.output, Catch::Contains("scan: PASS"));
}

TEST_CASE("a bad topology is one line naming the file and the entry, exit 2", "[cli][fabric]") {
  TempDir d;
  const std::string path = d / "fab.yaml";
  std::ofstream(path) << "spines:\n  - name: s1\nleaves:\n  - {name: l1, uplink_rate: 2G}\n"
                         "hosts:\n  - {name: h1, leaf: l1, rate: 2G}\n  - {name: h1, leaf: l1, rate: 2G}\n";
  for (const std::vector<std::string>& args : {std::vector<std::string>{"fabric", "simulate", "--topology", path},
                                               {"scan", "--np", "2", "--topology", path},
                                               {"scan", "--dry-run", "--topology", path}}) {
    ProcessResult r = run_process(ccbench(args));
    INFO(args[0]);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::StartsWith("ccbench: error: " + path + ":7:") && Catch::Contains("'h1' is named twice"));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
}
