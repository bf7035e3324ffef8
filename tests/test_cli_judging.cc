// The judging commands as a nightly job runs them: real runs with --repeat, a
// baseline, compare's exit status and its files, and bad input (exit 2).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process_util.h"
#include "temp_dir.h"

using namespace ccb::test;
using nlohmann::json;

namespace {

json load(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

}  // namespace

TEST_CASE("repeated runs, a baseline, and compare's exit status and files", "[cli][judging]") {
  TempDir d;
  for (const char* night : {"a.json", "b.json"}) {
    ProcessResult r = run_process(ccbench({"run", "--np", "2", "--sizes", "64K,1M", "-n", "4", "-w", "1", "--algo", "ring",
                                           "--repeat", "4", "--shuffle", "--json", d / night}));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("passes spread%") && Catch::Contains("# pass 4 of 4 done"));
  }
  json a = load(d / "a.json");
  CHECK(a["schema"] == "ccbench.result/2");
  CHECK(a["job"]["shuffle_seed"].is_number());
  CHECK(a["results"][0]["passes"].size() == 4);
  ProcessResult base = run_process(ccbench({"baseline", "--out", d / "base.json", d / "a.json", d / "b.json"}));
  INFO(base.output);
  CHECK(base.status == 0);
  // Against itself nothing can regress; a copy ten times slower regresses everywhere,
  // whatever this machine's noise (4 passes a side can reach p = 0.03).
  json slow = a;
  for (json& r : slow["results"])
    for (json& p : r["passes"]) p["busbw_gbps"] = p["busbw_gbps"].get<double>() / 10;
  std::ofstream(d / "slow.json") << slow.dump();
  ProcessResult same = run_process(ccbench({"compare", d / "a.json", d / "a.json", "--junit", d / "same.xml"}));
  CHECK(same.status == 0);
  ProcessResult worse = run_process(ccbench({"compare", d / "base.json", d / "slow.json", "--junit", d / "slow.xml",
                                             "--markdown", d / "slow.md", "--json", d / "slow-compare.json"}));
  INFO(worse.output);
  CHECK(worse.status == 1);
  CHECK_THAT(worse.output, Catch::Contains("regression"));
  std::ifstream junit(d / "slow.xml");
  std::string xml((std::istreambuf_iterator<char>(junit)), std::istreambuf_iterator<char>());
  CHECK_THAT(xml, Catch::Contains("failures=\"2\""));
  CHECK(load(d / "slow-compare.json")["regressions"] == 2);
}

TEST_CASE("bad input to the judging commands: one line, exit 2", "[cli][judging][errors]") {
  TempDir d;
  std::ofstream(d / "half.json") << "{\"schema\": \"ccbench.result/2\", \"complete\": tr";
  std::ofstream(d / "inc.json") << R"({"schema": "ccbench.result/2", "complete": false, "job": {}, "results": []})";
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {Case{{"compare", d / "half.json", d / "half.json"}, "half.json is not a complete JSON result"},
                        Case{{"compare", d / "inc.json", d / "inc.json"}, "--allow-incomplete"},
                        Case{{"compare", d / "none.json", d / "none.json"}, "cannot read result file"},
                        Case{{"compare", d / "inc.json", d / "inc.json", "--min-change", "lots"}, "is not a percentage"},
                        Case{{"compare", d / "inc.json", d / "inc.json", "--junit", d / "no/such/j.xml"}, "does not exist"},
                        Case{{"baseline", "--out", d / "inc.json", d / "inc.json"}, "is one of the runs it merges"},
                        Case{{"run", "--np", "2", "--seed", "3"}, "--seed orders the sizes of --shuffle"},
                        Case{{"run", "--np", "2", "--repeat", "0"}, "--repeat"}}) {
    ProcessResult r = run_process(ccbench(c.args));
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
}

TEST_CASE("a run judged by its rules: a failing size measured again, then exit 1 naming the rule", "[cli][judging][rules]") {
  TempDir d;
  std::ofstream(d / "strict.yaml") << "rules:\n  - name: impossible latency\n    select: {min_bytes: 1M}\n"
                                      "    require: p99_us <= 0.001\n  - name: no wrong results\n    require: wrong == 0\n";
  std::ofstream(d / "lenient.yaml") << "rules:\n  - name: every size\n    select: {sizes: [8, 1M]}\n    require: present\n";
  auto run = [&](const std::string& rules) {
    return run_process(ccbench({"run", "--np", "2", "--sizes", "8,1M", "-n", "3", "-w", "1", "--algo", "ring", "--rules", rules,
                                "--retries", "1", "--junit", d / "run.xml", "--json", d / "run.json"}));
  };
  ProcessResult fail = run(d / "strict.yaml");
  INFO(fail.output);
  CHECK(fail.status == 1);
  CHECK_THAT(fail.output, Catch::Contains("# retry 1 of 1: measuring again ring:1048576"));
  CHECK_THAT(fail.output, Catch::Contains("FAIL  impossible latency (line 2): allreduce ring tcp float sum 2 ranks 1048576 B"));
  json j = load(d / "run.json");
  CHECK(j["complete"] == true);
  CHECK(j["results"][1]["retries"] == 1);
  ProcessResult pass = run(d / "lenient.yaml");
  CHECK(pass.status == 0);
  ProcessResult check = run_process(ccbench({"check", d / "run.json", "--rules", d / "strict.yaml", "--markdown", d / "c.md"}));
  CHECK(check.status == 1);
  ProcessResult bad = run_process(ccbench({"run", "--np", "2", "--rules", d / "missing.yaml"}));
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("cannot read --rules"));
  ProcessResult orphan = run_process(ccbench({"run", "--np", "2", "--retries", "2"}));
  CHECK(orphan.status == 2);
  CHECK_THAT(orphan.output, Catch::Contains("give --rules too"));
}

TEST_CASE("report, history and --plot: files written, and without gnuplot exit 2 with the rest written", "[cli][judging][report]") {
  TempDir d;
  ProcessResult run = run_process(ccbench({"run", "--np", "2", "--sizes", "64K,1M", "-n", "3", "-w", "1", "--algo", "ring",
                                           "--repeat", "4", "--json", d / "n1.json", "--plot", d / "busbw.svg"}));
  INFO(run.output);
  REQUIRE(run.status == 0);
  std::ifstream svg(d / "busbw.svg");
  std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::Contains("<svg"));
  ProcessResult report = run_process(ccbench({"report", d / "n1.json", "--out", d / "report"}));
  INFO(report.output);
  CHECK(report.status == 0);
  for (const char* f : {"index.html", "summary.md", "busbw.svg", "busbw.png", "latency.svg", "latency.png"})
    CHECK(std::filesystem::exists(d / "report/" + std::string(f)));
  std::filesystem::create_directory(d / "nights");
  std::filesystem::copy_file(d / "n1.json", d / "nights/n1.json");
  ProcessResult history = run_process(ccbench({"history", d / "nights", "--out", d / "trend"}));
  CHECK(history.status == 0);
  CHECK(std::filesystem::exists(d / "trend/trend.svg"));
  // Without gnuplot: the report says so in one line and exit 2, and the pages are there.
  ProcessResult bare = run_process(ccbench({"report", d / "n1.json", "--out", d / "bare"}), {{"PATH", "/nonexistent"}});
  CHECK(bare.status == 2);
  CHECK_THAT(bare.output, Catch::Contains("gnuplot is not installed"));
  CHECK(std::filesystem::exists(d / "bare/index.html"));
  ProcessResult plot = run_process(ccbench({"run", "--np", "2", "--plot", d / "p.svg"}), {{"PATH", "/nonexistent"}});
  CHECK(plot.status == 2);
  CHECK_THAT(plot.output, Catch::Contains("--plot needs gnuplot"));
  ProcessResult kind = run_process(ccbench({"run", "--np", "2", "--plot", d / "p.pdf"}));
  CHECK(kind.status == 2);
  ProcessResult file_as_dir = run_process(ccbench({"report", d / "n1.json", "--out", d / "n1.json"}));
  CHECK(file_as_dir.status == 2);
  CHECK_THAT(file_as_dir.output, Catch::Contains("is not a folder"));
}
