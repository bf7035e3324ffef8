// What a new user trips on (issue 36), each case as it was first seen: a typo, a
// verdict without its reason, a fit that should not be trusted, a scan on one host, help
// that drifted from the code, two medians for one file, the shipped spec.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "json_file.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb::test;
using nlohmann::json;

namespace {

void save(const std::string& path, const json& j) { std::ofstream(path) << j.dump(2); }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a typo is named with its nearest word, in the order typed", "[cli][first-use]") {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {Case{{"comapre", "a.json", "b.json"}, "unknown subcommand 'comapre': did you mean 'compare'?"},
                        Case{{"run", "--sise", "4M"}, "unknown flag '--sise' for 'ccbench run': did you mean '--sizes'?"},
                        Case{{"model", "project", "--nodes", "64,1024"}, "unknown flag '--nodes' for 'ccbench model project'"},
                        Case{{"study", "--transport", "tcp"}, "did you mean '--transports'?"},
                        Case{{"run", "extra", "words"}, "'ccbench run' does not take 'extra words'"}}) {
    ProcessResult r = run_process(ccbench(c.args));
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);  // one line
  }
  ProcessResult bare = run_process(ccbench({}));
  CHECK(bare.status == 2);
  CHECK_THAT(bare.output, Catch::Contains("usage: ccbench SUBCOMMAND") && Catch::Contains("  compare ") && Catch::Contains("  qualify "));
  ProcessResult help = run_process(ccbench({"help"}));
  CHECK(help.status == 0);
  CHECK(help.output == bare.output);
  CHECK_THAT(run_process(ccbench({"help", "scan"})).output, Catch::Contains("--bw-size"));
}

TEST_CASE("help shows the defaults that run, lists from the registries, examples and exit codes", "[cli][first-use]") {
  ProcessResult p2p = run_process(ccbench({"p2p", "--help"}));
  CHECK_THAT(p2p.output, !Catch::Contains("--window INT=1") && Catch::Contains("bw and bidir 16, lat 1"));
  CHECK_THAT(p2p.output, Catch::Contains("--np INT:INT in [1 - 1024]=2"));
  ProcessResult run = run_process(ccbench({"run", "--help"}));
  CHECK_THAT(run.output, Catch::Contains("f8e4m3") && Catch::Contains("f8e5m2") && Catch::Contains("zero2") &&
                             Catch::Contains("|ep]") && Catch::Contains("--ib-cm native|rdmacm"));
  CHECK_THAT(run.output, !Catch::Contains("ENUM"));
  for (std::vector<std::string> sub : {std::vector<std::string>{"run"}, {"p2p"}, {"scan"}, {"qualify"}, {"study"}, {"launch"},
                                       {"compare"}, {"baseline"}, {"check"}, {"report"}, {"history"}, {"model"},
                                       {"model", "fit"}, {"model", "project"}, {"model", "validate"},
                                       {"fabric"}, {"fabric", "simulate"}}) {
    sub.push_back("--help");
    ProcessResult r = run_process(ccbench(sub));
    INFO(sub.front() << " " << sub[1]);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("Examples:\n  ccbench ") && Catch::Contains("Exit status: 0"));
    CHECK(count_of(r.output.substr(r.output.find("Examples:")), "\n  ccbench ") == 2);
  }
  // The output path is --out wherever it is one; -o stays the reduction op alone.
  for (const char* sub : {"baseline", "report", "study", "history"})
    CHECK_THAT(run_process(ccbench({sub, "--help"})).output, Catch::Contains("--out") && !Catch::Contains("-o,"));
}

TEST_CASE("compare says why nothing was judged, in the text, the Markdown and the JUnit; one median for one file",
          "[cli][first-use]") {
  TempDir d;
  for (const char* name : {"a.json", "b.json"}) {
    ProcessResult r = run_process(ccbench({"run", "--np", "2", "--sizes", "64K", "-n", "3", "-w", "1", "--algo", "ring", "--json", d / name}));
    REQUIRE(r.status == 0);
  }
  ProcessResult c = run_process(ccbench({"compare", d / "a.json", d / "b.json", "--markdown", d / "c.md", "--junit", d / "c.xml"}));
  INFO(c.output);
  CHECK(c.status == 1);
  const std::string reason = "one pass and no samples on a side (run both with --repeat N, or --samples)";
  CHECK_THAT(c.output, Catch::Contains("#   not comparable: " + reason));
  CHECK_THAT(c.output, Catch::EndsWith("compare: FAIL: nothing could be judged: not comparable, " + reason + "\n"));
  CHECK_THAT(slurp(d / "c.md"), Catch::Contains(reason) && Catch::Contains("**compare: FAIL: nothing could be judged"));
  CHECK_THAT(slurp(d / "c.xml"), Catch::Contains("<skipped message=\"not comparable: " + reason) &&
                                     Catch::Contains("<failure message=\"compare: FAIL: nothing could be judged"));

  // An even --repeat: run's row, the record's summary and compare quote the same pass.
  ProcessResult even = run_process(ccbench({"run", "--np", "2", "--sizes", "64K", "-n", "3", "-w", "1", "--algo", "ring",
                                            "--repeat", "4", "--json", d / "even.json"}));
  REQUIRE(even.status == 0);
  json e = read_json(d / "even.json");
  std::vector<double> passes;
  for (const json& p : e["results"][0]["passes"]) passes.push_back(p["busbw_gbps"]);
  std::sort(passes.begin(), passes.end());
  CHECK(e["results"][0]["busbw_gbps"] == passes[1]);  // the lower middle of four
  CHECK(e["results"][0]["summary"]["busbw_gbps"]["median"] == passes[1]);
  ProcessResult self = run_process(ccbench({"compare", d / "even.json", d / "even.json", "--json", d / "self.json"}));
  CHECK(read_json(d / "self.json")["keys"][0]["base_busbw_gbps"] == passes[1]);
  CHECK_THAT(self.output, !Catch::Contains("warning"));
  // A top-level figure edited away from its passes is named, not silently ignored.
  e["results"][0]["busbw_gbps"] = passes[1] * 1.3;
  save(d / "edited.json", e);
  ProcessResult edited = run_process(ccbench({"compare", d / "even.json", d / "edited.json"}));
  CHECK_THAT(edited.output, Catch::Contains("warning: ") && Catch::Contains("is not the median of its passes"));
}

TEST_CASE("a poor fit is flagged by fit and refused by project; a projection grows with the ranks", "[cli][first-use]") {
  TempDir d;
  ProcessResult r = run_process(ccbench({"run", "--np", "2", "--sizes", "1M,2M,4M,8M", "-n", "3", "-w", "1", "--algo", "ring",
                                         "--json", d / "sweep.json"}));
  REQUIRE(r.status == 0);
  json j = read_json(d / "sweep.json");
  const double noisy_us[] = {9000, 300, 12000, 900};  // no line fits these
  for (size_t i = 0; i < 4; ++i) {
    for (json& p : j["results"][i]["passes"]) p["time_us"] = noisy_us[i];
    j["results"][i]["time_us"] = noisy_us[i];
  }
  save(d / "noisy.json", j);
  ProcessResult fit = run_process(ccbench({"model", "fit", d / "noisy.json", "--out", d / "fit.json"}));
  INFO(fit.output);
  REQUIRE(fit.status == 0);
  CHECK_THAT(fit.output, Catch::Contains("POOR FIT") && Catch::Contains("trusted from 0.90"));
  ProcessResult refused = run_process(ccbench({"model", "project", "--fit", d / "fit.json", "--ranks", "64,1024"}));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.output, Catch::Contains("is a poor fit") && Catch::Contains("--accept-poor-fit"));
  ProcessResult accepted = run_process(ccbench({"model", "project", "--fit", d / "fit.json", "--ranks", "64,1024", "--accept-poor-fit"}));
  CHECK(accepted.status == 0);
  CHECK_THAT(accepted.output, Catch::Contains("warning: projecting from a poor fit"));

  // With a latency, ring and tree both take longer on more ranks, and weak scaling falls.
  ProcessResult p = run_process(ccbench({"model", "project", "--alpha", "2us", "--bandwidth", "100G", "--ranks", "64,1024,8192",
                                         "--json", d / "p.json"}));
  REQUIRE(p.status == 0);
  const json scales = read_json(d / "p.json")["scales"];
  for (size_t i = 1; i < scales.size(); ++i) {
    CHECK(scales[i]["comm_ring_us"].get<double>() > scales[i - 1]["comm_ring_us"].get<double>());
    CHECK(scales[i]["comm_tree_us"].get<double>() > scales[i - 1]["comm_tree_us"].get<double>());
  }
  CHECK(scales[2]["weak_efficiency_tree"].get<double>() < 1);
  // Sizes in one unit family: a call of 1024016 KiB reads as MiB.
  ProcessResult fsdp = run_process(ccbench({"model", "project", "--alpha", "2us", "--bandwidth", "100G", "--ranks", "64",
                                            "--profile", "llama2-70b:fsdp"}));
  CHECK_THAT(fsdp.output, !Catch::Matches("(.|\n)*[0-9]{5,} KiB(.|\n)*"));
}

TEST_CASE("a scan on one host says so and judges only the data", "[cli][first-use]") {
  TempDir d;
  ProcessResult r = run_process(ccbench({"scan", "--np", "4", "--bw-iters", "3", "--lat-iters", "20", "--bw-size", "64K",
                                         "--json", d / "scan.json"}));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("scan: PASS: not judged: every rank runs on one host and NIC"));
  const json s = read_json(d / "scan.json");
  CHECK(s["one_host"].is_string());
  CHECK(s["pass"] == true);
}

TEST_CASE("a spec without a rate says both ways to give it; the ranks' exits are one line; built-in rules name no line",
          "[cli][first-use]") {
  TempDir d;
  std::ofstream(d / "rate.yaml") << "name: rate\ntransport: tcp\nbattery:\n  - p2p: bw\n    sizes: [64K]\nrules:\n"
                                    "  - name: line rate\n    select: {collective: p2p_bw}\n    require: link_util_pct >= 1\n";
  ProcessResult r = run_process(ccbench({"qualify", "--spec", d / "rate.yaml", "--np", "4", "--junit", d / "q.xml"}));
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("give --line-rate N (run, qualify, scan) or line_rate: N in the spec"));
  CHECK_THAT(r.output, Catch::Contains("pass  no wrong results: ") && Catch::Contains("qualify: FAIL: rate, 1 of "));
  CHECK(count_of(r.output, "exited with status") == 1);  // every rank exits 1 with rank 0's verdict
  CHECK_THAT(r.output, Catch::Contains("ranks 0-3 exited with status 1"));
  CHECK_THAT(slurp(d / "q.xml"), Catch::Contains("<testsuite name=\"ccbench qualify\""));
}

TEST_CASE("a soak measures its CPU time", "[cli][first-use]") {
  TempDir d;
  ProcessResult r = run_process(ccbench({"run", "--np", "2", "--sizes", "64K", "--duration", "2s", "--json", d / "soak.json"}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(read_json(d / "soak.json")["results"][0]["cpu_pct"]["mean"].get<double>() > 0);
}

// The shipped TCP spec, as a new user first runs it: on loopback, given the rate.
TEST_CASE("specs/tcp.yaml passes on loopback with --line-rate", "[cli][first-use][spec]") {
  TempDir d;
  ProcessResult r = run_process(ccbench({"qualify", "--spec", CCB_SOURCE_DIR "/specs/tcp.yaml", "--np", "2", "--line-rate", "1G",
                                         "--junit", d / "q.xml", "--report", d / "report"}),
                                {}, std::chrono::seconds(240));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("qualify: PASS: TCP, 0 of "));
  const std::string page = slurp(d / "report/index.html");
  CHECK(page.find("id=\"verdict\" class=\"pass\">qualify: PASS: TCP") < page.find("<h2>"));
}
