// ccbench p2p and ccbench scan through the command line: perftest's columns, records of
// the result schema that the judging commands read, and the scan's verdict and files.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "json_file.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::test;
using nlohmann::json;

namespace {

ProcessResult p2p(std::vector<std::string> args) {
  args.insert(args.begin(), "p2p");
  return run_process(ccbench(args));
}

}  // namespace

TEST_CASE("p2p bw: perftest's columns, every message checked, a record of the result schema", "[cli][p2p]") {
  TempDir tmp;
  const std::string js = tmp.path + "/bw.json";
  ProcessResult r = p2p({"--sizes", "4K,1M", "--window", "8", "-n", "6", "--json", js});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("BW_avg[Gb/s]") && Catch::Contains("MsgRate[Mpps]") &&
                           Catch::Contains("Out of bounds values : 0 OK"));
  json j = read_json(js);
  CHECK(j["schema"] == "ccbench.result/2");
  REQUIRE(j["results"].size() == 2);
  for (const json& res : j["results"]) {
    CHECK(res["collective"] == "p2p_bw");
    CHECK(res["window"] == 8);
    CHECK(res["wrong"] == 0);
    CHECK(res["algbw_gbps"].get<double>() > 0);
  }
  // The judging commands read it as they read any run (one pass each: not comparable).
  ProcessResult same = run_process(ccbench({"compare", js, js}));
  INFO(same.output);
  CHECK(same.status != 2);
  CHECK_THAT(same.output, Catch::Contains("p2p_bw direct tcp uint8") && Catch::Contains("2 not comparable"));
}

TEST_CASE("p2p lat: one-way latency as perftest reports it, min to p99.9", "[cli][p2p]") {
  ProcessResult r = p2p({"--test", "lat", "--sizes", "8,4K", "-n", "50"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("t_min[us]") && Catch::Contains("t_median") && Catch::Contains("t_p99.9") &&
                           Catch::Contains("p2p_lat"));
  CHECK_THAT(r.output, !Catch::Contains("Avg bus bandwidth"));
}

TEST_CASE("p2p bidir reports one direction and both; --pairs runs pairs side by side", "[cli][p2p]") {
  ProcessResult bidir = p2p({"--test", "bidir", "--sizes", "64K", "-n", "5"});
  INFO(bidir.output);
  REQUIRE(bidir.status == 0);
  CHECK_THAT(bidir.output, Catch::Contains("both_ways[Gb/s]") && Catch::Contains("p2p_bidir"));
  ProcessResult pairs = p2p({"--np", "4", "--pairs", "--sizes", "64K", "-n", "5"});
  INFO(pairs.output);
  CHECK(pairs.status == 0);
  CHECK_THAT(pairs.output, Catch::Contains("ranks=4") && Catch::Contains("Out of bounds values : 0 OK"));
}

TEST_CASE("bad p2p and scan input: one line, exit 2, before any rank starts", "[cli][p2p][errors]") {
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"p2p", "--np", "4"}, "p2p_bw runs between 2 ranks, not 4: use 2 ranks, or --pairs"},
           {{"p2p", "--np", "3", "--pairs"}, "--pairs needs an even number of ranks, not 3"},
           {{"p2p", "--test", "lat", "--window", "4"}, "--window applies to p2p_bw and p2p_bidir, not p2p_lat"},
           {{"p2p", "--window", "0"}, "--window must be between 1 and 4096"},
           {{"p2p", "--test", "write"}, "--test"},
           {{"run", "--collective", "p2p_bw", "--np", "2", "--in-place"}, "--in-place does not apply to p2p_bw"},
           {{"p2p", "--sweep", "qps=2"}, "--sweep qps= needs --transport verbs: use streams= for tcp"},
           {{"p2p", "--sweep", "streams=0"}, "--sweep streams=0: give 1 to 64"},
           {{"p2p", "--sweep", "streams"}, "--sweep 'streams' must be qps=1,2,4 (verbs) or streams=1,2,4 (tcp, ipoib)"},
           {{"scan", "--np", "1"}, "scan measures pairs of hosts and needs at least 2, one rank on each, not 1"},
           {{"scan", "--bw-size", "0"}, "--bw-size must be between 1 B and 1G"},
           {{"scan", "--bw-frac", "1.5"}, "--bw-frac"},
       }) {
    ProcessResult r = run_process(ccbench(args));
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
}

TEST_CASE("scan on 2 ranks of one host: both matrices, a PASS that says it judged nothing, its JSON and a heatmap", "[cli][scan]") {
  TempDir tmp;
  const std::string js = tmp.path + "/scan.json", svg = tmp.path + "/scan.svg";
  ProcessResult r = run_process(ccbench({"scan", "--np", "2", "--bw-iters", "3", "--lat-iters", "20", "--json", js, "--plot", svg}));
  INFO(r.output);
  REQUIRE(r.status == 0);  // both ranks share this host: a slow pair would show its load, not a cable
  CHECK_THAT(r.output, Catch::Contains("bandwidth each way [Gbit/s]") && Catch::Contains("latency one way [us]") &&
                           Catch::Contains("scan: PASS: not judged: every rank runs on one host and NIC"));
  json j = read_json(js);
  CHECK(j["schema"] == "ccbench.scan/1");
  CHECK(j["pass"] == true);
  CHECK(j["rounds"].size() == 1);
  CHECK(j["bw_gbps"][0][1].get<double>() > 0);
  CHECK(j["bw_gbps"][0][0].is_null());
  CHECK(j["hosts"].size() == 2);
  CHECK(j["one_host"].is_string());
  CHECK(std::filesystem::file_size(svg) > 1000);
}

TEST_CASE("qualify: a bad spec or a test the job cannot run is one line and exit 2, before any rank starts", "[cli][qualify][errors]") {
  TempDir tmp;
  const std::string unknown = tmp.path + "/unknown.yaml", odd = tmp.path + "/odd.yaml", size = tmp.path + "/size.yaml";
  std::ofstream(unknown) << "transport: tcp\nbattery:\n  - iperf: {}\nrules:\n  - name: r\n    require: wrong == 0\n";
  std::ofstream(odd) << "transport: tcp\nbattery:\n  - p2p: bw\n    sizes: [1M]\nrules:\n  - name: r\n    require: wrong == 0\n";
  std::ofstream(size) << "transport: tcp\nbattery:\n  - collective: allreduce\n    sizes: [6]\nrules:\n  - name: r\n    require: wrong == 0\n";
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"qualify", "--spec", unknown}, "unknown.yaml:3:5: iperf: unknown test"},
           {{"qualify", "--spec", odd, "--np", "3"}, "odd.yaml:3: p2p_bw runs in pairs and 3 ranks leave one out"},
           {{"qualify", "--spec", size}, "size.yaml:3: size 6 B is not a multiple of 4 B"},
           {{"qualify", "--spec", odd, "--transport", "verbs"}, "--transport verbs but the spec qualifies tcp: drop --transport"},
           {{"qualify", "--spec", tmp.path + "/missing.yaml"}, "missing.yaml"},
       }) {
    ProcessResult r = run_process(ccbench(args));
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
}

TEST_CASE("qualify on one machine: every kind of test, verdicts, JSON and JUnit", "[cli][qualify]") {
  TempDir tmp;
  const std::string js = tmp.path + "/q.json", xml = tmp.path + "/q.xml";
  ProcessResult r = run_process(ccbench({"qualify", "--spec", std::string(CCB_FIXTURES) + "/qualify-local.yaml", "--json", js,
                                         "--junit", xml}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("# qualify 6 of 6: scan") && Catch::Contains("pass  scan: no slow host or cable") &&
                           Catch::Contains("pass  manifest: no warnings") && Catch::Contains("qualify: PASS: loopback"));
  json j = read_json(js);
  CHECK(j["complete"] == true);
  std::set<std::string> kinds;
  for (const json& res : j["results"]) kinds.insert(res["collective"].get<std::string>());
  CHECK(kinds == std::set<std::string>{"p2p_bw", "p2p_lat", "allreduce"});
  CHECK(std::filesystem::file_size(xml) > 100);
}

TEST_CASE("p2p --sweep streams=1,2: the sizes once per setting, each its own transport and its own key", "[cli][p2p]") {
  TempDir tmp;
  const std::string js = tmp.path + "/sweep.json";
  ProcessResult r = p2p({"--sweep", "streams=1,2", "--sizes", "64K", "-n", "5", "--json", js});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("p2p_bw streams=2 transport=[tcp streams=2"));
  json j = read_json(js);
  REQUIRE(j["results"].size() == 2);
  CHECK(j["results"][0]["variant"] == "streams=1");
  CHECK(j["results"][1]["variant"] == "streams=2");
  ProcessResult same = run_process(ccbench({"compare", js, js}));
  CHECK_THAT(same.output, Catch::Contains("p2p_bw direct tcp streams=2 uint8"));
}
