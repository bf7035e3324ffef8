// `--algo hier` and `--ranks-per-host` as a user runs them on one host (the emulated
// cluster's tests run them across hosts: cluster_launchers_test.sh): checked results,
// each leg's time in the table and the record, and bad input refused in one line.
#include <catch2/catch.hpp>
#include <string>

#include "json_file.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb::test;

TEST_CASE("hier on one host: checked, each leg's time printed and recorded", "[cli][hier]") {
  TempDir dir;
  const std::string json = dir / "h.json";
  for (std::vector<std::string> extra : {std::vector<std::string>{"--algo", "hier", "--json", json},
                                         {"--algo", "hier", "--intra", "same", "-d", "bfloat16", "-o", "avg", "--in-place"},
                                         {"--algo", "hier,ring", "--inter-algo", "tree", "-d", "int64", "-o", "max"},
                                         {"--algo", "hier", "--collective", "reduce_scatter", "-o", "avg"},
                                         {"--algo", "hier", "--collective", "all_gather", "--in-place"},
                                         {"--algo", "hier", "--collective", "broadcast", "--root", "3"}}) {
    auto args = ccbench({"run", "--np", "4", "--sizes", "96,300K,3M", "-n", "3", "-w", "1"});
    args.insert(args.end(), extra.begin(), extra.end());
    ProcessResult r = run_process(args);
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("Out of bounds values : 0 OK") && Catch::Contains("# hier 3 MiB: ") &&
                             Catch::Contains(" across hosts "));
  }
  const auto d = read_json(json);
  REQUIRE(d["results"].size() == 3);
  for (const auto& row : d["results"]) {
    CHECK(row["algorithm"] == "hier");
    CHECK(row["legs_us"]["intra_before"].get<double>() > 0);
    CHECK(row["legs_us"].contains("inter"));
  }
}

TEST_CASE("hier and --ranks-per-host misused: one line and exit 2", "[cli][hier][errors]") {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {Case{{"--np", "4", "--ranks-per-host", "3"}, "--ranks-per-host 3 does not divide the 4 ranks"},
                        Case{{"--np", "4", "--ranks-per-host", "2"}, "--ranks-per-host 2 but the ranks found 1 host(s) holding"},
                        Case{{"--np", "2", "--algo", "ring", "--intra", "same"}, "--intra and --inter-algo choose --algo hier's legs"},
                        Case{{"--np", "2", "--duration", "2s", "--inter-algo", "tree"}, "--intra and --inter-algo choose"},
                        Case{{"--np", "2", "--collective", "reduce", "--intra", "same"}, "--intra and --inter-algo choose"},
                        Case{{"--np", "2", "--algo", "hier", "--inter-algo", "direct"}, "--inter-algo: direct not in"},
                        Case{{"--np", "2", "--algo", "hier", "--collective", "reduce"}, "the hier algorithm does not exist for reduce"},
                        Case{{"--np", "2", "--algo", "hier", "--profile", "gpt2-small"}, "--algo hier runs in a sweep of sizes so far"}}) {
    auto args = ccbench({"run", "--sizes", "1K", "-n", "2"});
    args.insert(args.end(), c.args.begin(), c.args.end());
    ProcessResult r = run_process(args);
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.says));
  }
}

TEST_CASE("a --ranks-per-host that the host holds runs", "[cli][hier]") {
  ProcessResult r = run_process(ccbench({"run", "--np", "2", "--ranks-per-host", "2", "--sizes", "1K", "-n", "2"}));
  INFO(r.output);
  CHECK(r.status == 0);
}

// auto may choose hier only with several hosts (cluster_rails shows it does there); on
// one, it takes hier's flags and runs flat.
TEST_CASE("auto on one host takes --intra and --inter-algo and runs flat", "[cli][hier]") {
  TempDir dir;
  const std::string json = dir / "auto.json";
  ProcessResult r = run_process(ccbench({"run", "--np", "4", "--ranks-per-host", "4", "--sizes", "1K,16M", "-n", "2",
                                         "--intra", "same", "--inter-algo", "ring", "--json", json}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, !Catch::Contains("# hier "));
  const auto record = read_json(json);  // the rows live in it
  for (const auto& row : record["results"]) CHECK(row["algorithm"] != "hier");
}

TEST_CASE("rails misnamed: a missing rail, one named twice, an empty name; one line and exit 2 before start", "[cli][rails][errors]") {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {Case{{"--iface", "lo,nosuch9"}, "no network interface named 'nosuch9'"},
                        Case{{"--iface", "lo,lo"}, "--iface lo,lo: lo is named twice"},
                        Case{{"--iface", "lo,"}, "--iface lo,: an empty name"},
                        Case{{"--transport", "verbs", "--ib-dev", "rxe0,,rxe1"}, "--ib-dev rxe0,,rxe1: an empty name"}}) {
    auto args = ccbench({"run", "--np", "2", "--sizes", "1K", "-n", "2"});
    args.insert(args.end(), c.args.begin(), c.args.end());
    ProcessResult r = run_process(args);
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.says));
    CHECK(r.output.find("rank 0") == std::string::npos);  // refused before any rank started
  }
}

// Both legs of a hier sweep are fitted; on one host only the within-host leg exists
// (the cluster has none to cross), and a projection takes it as measured unless the
// within-node flags are given.
TEST_CASE("model fit of a hier sweep prints its leg; project names what was measured", "[cli][hier][model]") {
  TempDir dir;
  const std::string sweep = dir / "hier.json", fit = dir / "fit.json";
  ProcessResult run = run_process(ccbench({"run", "--np", "4", "--algo", "hier,ring", "--sizes", "64K,256K,1M,4M", "-n", "3",
                                           "-w", "1", "--json", sweep}));
  INFO(run.output);
  REQUIRE(run.status == 0);
  ProcessResult fitted = run_process(ccbench({"model", "fit", sweep, "--out", fit}));
  INFO(fitted.output);
  REQUIRE(fitted.status == 0);
  CHECK_THAT(fitted.output, Catch::Contains("allreduce ring shm 4 ranks (hier within hosts)") &&
                                Catch::Contains("allreduce ring tcp 4 ranks"));
  for (const bool given : {false, true}) {
    std::vector<std::string> args{"model", "project", "--fit", fit, "--ranks", "8,64", "--gpus-per-node", "4", "--accept-poor-fit"};
    if (given) args.insert(args.end(), {"--intra-alpha", "1us"});
    ProcessResult project = run_process(ccbench(args));
    INFO(project.output);
    REQUIRE(project.status == 0);
    CHECK_THAT(project.output, Catch::Contains("# across nodes: measured: fit of allreduce ring tcp 4 ranks"));
    CHECK_THAT(project.output, Catch::Contains(given ? "# within a node: given: --intra-alpha 1us"
                                                     : "# within a node: measured: fit of allreduce ring shm 4 ranks (hier within hosts)"));
  }
}
