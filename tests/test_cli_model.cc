// `ccbench study` and `ccbench model` as a user runs them: a live study over TCP, the
// same table from separate runs, a fit, a projection and a validation from real sweeps,
// and bad input (one line, exit 2).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "json_file.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb::test;
using nlohmann::json;

namespace {

bool has_rdma_device() {
  std::error_code ec;
  return std::filesystem::exists("/sys/class/infiniband", ec) && !std::filesystem::is_empty("/sys/class/infiniband", ec);
}

ProcessResult sweep(const std::string& json_path, const std::string& np, const char* collective) {
  return run_process(ccbench({"run", "--np", np, "--collective", collective, "--algo", "ring", "--sizes",
                              "48K,192K,768K,3M,12M", "-n", "3", "-w", "1", "--json", json_path}));
}

}  // namespace

TEST_CASE("study over TCP in one command, then the same table from separate runs", "[cli][model][study]") {
  TempDir d;
  ProcessResult live = run_process(ccbench({"study", "--np", "2", "--transports", "tcp", "--profile", "bert-large:ddp,gpt2-xl:tp",
                                            "-n", "1", "-w", "0", "--out", d / "s"}), {}, std::chrono::seconds(240));
  INFO(live.output);
  REQUIRE(live.status == 0);
  CHECK_THAT(live.output, Catch::Contains("comm_ms/step") && Catch::Contains("compute ") && Catch::Contains("a100"));
  const json record = read_json(d / "s/tcp.json");
  CHECK(record["complete"] == true);
  CHECK(record["steps"].size() == 2);
  const json study = read_json(d / "s/study.json");
  CHECK(study["schema"] == "ccbench.study/1");
  REQUIRE(study["profiles"].size() == 2);
  CHECK(study["profiles"][0]["runs"][0]["comm_share"].get<double>() > 0);
  for (const char* f : {"index.html", "summary.md"}) CHECK(std::filesystem::exists(d / (std::string("s/") + f)));
  // The record is any run's: compare reads it (one pass a side is not enough to judge).
  ProcessResult compare = run_process(ccbench({"compare", d / "s/tcp.json", d / "s/tcp.json"}));
  CHECK(compare.status != 2);
  CHECK_THAT(compare.output, Catch::Contains("bert-large:ddp[auto] gradient bucket: allreduce ring tcp"));

  ProcessResult from = run_process(ccbench({"study", "--from", d / "s/tcp.json", "--label", "day1", "--from", d / "s/tcp.json",
                                            "--label", "day2", "--compute-ms", "100", "--out", d / "t"}));
  INFO(from.output);
  REQUIRE(from.status == 0);
  const json table = read_json(d / "t/study.json");
  CHECK(table["labels"] == json::array({"day1", "day2"}));
  CHECK(table["profiles"][0]["runs"][0]["speedup_over"]["day2"].get<double>() == Approx(1));
  CHECK(table["profiles"][0]["compute_ms"].get<double>() == 100);
}

TEST_CASE("study of a model file: its compute comes from the file, and a table from its record needs the file or a time",
          "[cli][model][study]") {
  TempDir d;
  const std::string model = d.write("tiny.json", R"({"name": "llama-tiny", "hidden": 64, "layers": 4, "ffn": 128,
                                                      "heads": 4, "vocab": 100, "seq": 16, "micro_batches": 2})");
  ProcessResult live = run_process(ccbench({"study", "--np", "2", "--transports", "tcp", "--profile", model + ":ddp",
                                            "-n", "2", "-w", "0", "--out", d / "s"}), {}, std::chrono::seconds(120));
  INFO(live.output);
  REQUIRE(live.status == 0);
  CHECK(read_json(d / "s/study.json")["profiles"][0]["compute_ms"].get<double>() > 0);
  ProcessResult bare = run_process(ccbench({"study", "--from", d / "s/tcp.json", "--out", d / "t"}));
  CHECK(bare.status == 2);
  CHECK_THAT(bare.output, Catch::Contains("llama-tiny is not a preset") && Catch::Contains("--compute-ms MS, or the model's file"));
  ProcessResult with_file = run_process(ccbench({"study", "--from", d / "s/tcp.json", "--profile", model, "--out", d / "t"}));
  INFO(with_file.output);
  CHECK(with_file.status == 0);
}

TEST_CASE("study: a transport that cannot run here is an error, or a note with --skip-unavailable", "[cli][model][study]") {
  if (has_rdma_device()) return;  // this host has verbs: nothing to refuse
  TempDir d;
  ProcessResult refused = run_process(ccbench({"study", "--np", "2", "--transports", "tcp,verbs", "--profile", "bert-large:ddp", "--out", d / "s"}));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.output, Catch::Contains("verbs cannot run here") && Catch::Contains("--skip-unavailable"));
  CHECK(std::count(refused.output.begin(), refused.output.end(), '\n') == 1);
  CHECK_FALSE(std::filesystem::exists(d / "s/tcp.json"));  // judged before any rank started
  ProcessResult skipped = run_process(ccbench({"study", "--np", "2", "--transports", "tcp,verbs", "--profile", "gpt2-xl:tp",
                                               "-n", "1", "-w", "0", "--skip-unavailable", "--out", d / "s"}), {}, std::chrono::seconds(240));
  INFO(skipped.output);
  REQUIRE(skipped.status == 0);
  CHECK_THAT(read_json(d / "s/study.json")["notes"][0].get<std::string>(), Catch::Contains("skipped verbs"));
}

TEST_CASE("model fit, project and validate from real sweeps", "[cli][model]") {
  TempDir d;
  for (const char* np : {"2", "3"})
    for (const char* c : {"allreduce", "all_gather"}) {
      ProcessResult r = sweep(d / (std::string(c) + np + ".json"), np, c);
      INFO(r.output);
      REQUIRE(r.status == 0);
    }
  const std::vector<std::string> files{d / "allreduce2.json", d / "all_gather2.json", d / "allreduce3.json", d / "all_gather3.json"};
  std::vector<std::string> fit_args{"model", "fit", "--out", d / "fit.json"};
  fit_args.insert(fit_args.end(), files.begin(), files.end());
  ProcessResult fit = run_process(ccbench(fit_args));
  INFO(fit.output);
  REQUIRE(fit.status == 0);
  // Whether loopback shows the reduction's cost beyond the all-gather's varies by run;
  // either way the fit names the sibling it compared with.
  CHECK_THAT(fit.output, Catch::Contains("allreduce ring tcp all ranks") && Catch::Contains("all_gather ring tcp all ranks"));
  CHECK_THAT(fit.output, Catch::Contains("beta from all_gather ring tcp") || Catch::Contains("than all_gather ring tcp"));
  CHECK(read_json(d / "fit.json")["schema"] == "ccbench.fit/1");

  // Short loopback sweeps on two shared cores may fit poorly, which project refuses
  // (tested with a fit made poor on purpose); here the projection's shape is tested.
  ProcessResult project = run_process(ccbench({"model", "project", "--fit", d / "fit.json", "--ranks", "8,64,512", "--gpus-per-node",
                                               "8", "--profile", "llama2-7b:ddp", "--json", d / "p.json", "--accept-poor-fit"}));
  INFO(project.output);
  REQUIRE(project.status == 0);
  CHECK_THAT(project.output, Catch::Contains("weak_eff_ring") && Catch::Contains("extrapolates") &&
                                 Catch::Contains("the model leaves out"));
  CHECK(read_json(d / "p.json")["scales"].size() == 3);

  std::vector<std::string> validate_args{"model", "validate", "--fit-ranks", "2"};
  validate_args.insert(validate_args.end(), files.begin(), files.end());
  ProcessResult validate = run_process(ccbench(validate_args));
  INFO(validate.output);
  CHECK(validate.status == 0);
  CHECK_THAT(validate.output, Catch::Contains("# worst error:"));

  ProcessResult what_if = run_process(ccbench({"model", "project", "--what-if", "--ranks", "8"}));
  CHECK(what_if.status == 0);
  CHECK_THAT(what_if.output, Catch::Contains("paper: 2.5x, 4.8x") && Catch::Contains("bert-large:ddp"));

  // Bad input: one line, exit 2.
  json other = read_json(d / "all_gather3.json");
  other["job"]["machine"]["cpu"] = "Another CPU";
  std::ofstream(d / "other.json") << other.dump();
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {Case{{"model", "fit", d / "allreduce2.json", d / "other.json"}, "fit each machine's results on their own"},
                        Case{{"model", "project", "--alpha", "2us", "--bandwidth", "100G", "--ranks", "64,80", "--profile",
                              "llama2-70b", "--parallel", "tp=8,pp=4"}, "--ranks 80 does not fit --parallel tp=8,pp=4"},
                        Case{{"model", "project", "--ranks", "8"}, "needs the network"},
                        Case{{"model", "project", "--fit", d / "allreduce2.json", "--ranks", "8"}, "is not a fit"},
                        Case{{"model", "validate", "--fit-ranks", "2,3", d / "allreduce2.json"}, "no result outside --fit-ranks"},
                        Case{{"study", "--from", d / "allreduce2.json", "--out", d / "x"}, "holds no profile step"},
                        Case{{"study", "--from", d / "a.json", "--label", "a", "--label", "b"}, "give one label per file"}}) {
    ProcessResult r = run_process(ccbench(c.args));
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
  ProcessResult two = run_process(ccbench({"run", "--np", "2", "--sizes", "64K,1M", "-n", "2", "--json", d / "two.json"}));
  REQUIRE(two.status == 0);
  ProcessResult few = run_process(ccbench({"model", "fit", d / "two.json"}));
  CHECK(few.status == 2);
  CHECK_THAT(few.output, Catch::Contains("a fit needs 3 or more"));
}
