// Profiles, traces and result files through the command line, and the Google
// Benchmark driver under the local launcher and env launch.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <future>
#include <thread>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bootstrap/local_launcher.h"
#include "json_file.h"
#include "process_util.h"

using namespace ccb;
using namespace ccb::test;
using nlohmann::json;

namespace {

std::string temp_path(const std::string& name) { return "/tmp/ccb-cli-" + std::to_string(getpid()) + "-" + name; }

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("listing the profiles shows the derived sizes without starting ranks", "[cli][profiles]") {
  ProcessResult all = run_process(ccbench({"run", "--list-profiles"}));
  REQUIRE(all.status == 0);
  for (const char* p : {"bert-large:ddp", "gpt2-xl:tp", "t5-11b:fsdp", "llama2-7b:ddp", "llama2-13b:tp",
                        "llama2-70b:fsdp", "gpt3-175b:tp"})
    CHECK_THAT(all.output, Catch::Contains(p));
  ProcessResult one = run_process(ccbench({"run", "--list-profiles", "--profile", "llama2-70b:tp"}));
  REQUIRE(one.status == 0);
  CHECK_THAT(one.output, Catch::Contains("67108864 B") && Catch::Contains("x320"));
  CHECK_THAT(one.output, !Catch::Contains("gpt2-xl"));
}

TEST_CASE("a profile run prints per-size figures, the step time, and writes JSON and CSV", "[cli][profiles]") {
  const std::string js = temp_path("p.json"), csv = temp_path("p.csv");
  ProcessResult r = run_process(ccbench({"run", "--np", "2", "--profile", "bert-large:tp", "--algo", "ring", "-n", "3",
                                         "--line-rate", "100G", "--json", js, "--csv", csv}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("profile bert-large:tp") && Catch::Contains("ms of communication per training step"));
  json j = read_json(js);
  CHECK(j["complete"] == true);
  REQUIRE(j["results"].size() == 1);
  CHECK(j["results"][0]["profile"] == "bert-large:tp");
  CHECK(j["results"][0]["count_per_step"] == 96);
  CHECK(j["results"][0]["bytes"] == 1 << 20);
  CHECK(j["results"][0]["link_util_pct"].is_number());
  CHECK(j["job"]["line_rate_source"] == "--line-rate");
  CHECK(j["job"]["memory"] == "host");
  CHECK(j["job"]["wait"]["yield"] == (2 > std::thread::hardware_concurrency()));
  CHECK(j["steps"][0]["comm_us"].get<double>() > 0);
  std::ifstream in(csv);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  CHECK_THAT(row, Catch::Contains("bert-large:tp"));
  unlink(js.c_str());
  unlink(csv.c_str());
}

TEST_CASE("the pp, zero1, zero2, hsdp and ep profiles run their collectives, checked", "[cli][profiles]") {
  const std::string model = temp_path("tiny.json"), js = temp_path("modes.json");
  std::ofstream(model) << R"({"name": "tiny", "hidden": 64, "layers": 2, "ffn": 128, "heads": 4, "vocab": 100,
                              "seq": 16, "micro_batches": 2, "shard_group": 2, "experts": 4, "top_k": 2})";
  for (const char* mode : {"pp", "zero1", "zero2", "ep", "hsdp"}) {
    ProcessResult r = run_process(ccbench({"run", "--np", "3", "--profile", model + ":" + mode, "-n", "3", "--json", js}));
    INFO(mode << "\n" << r.output);
    REQUIRE(r.status == 0);
    json j = read_json(js);
    CHECK(j["complete"] == true);
    for (const json& row : j["results"]) CHECK(row["wrong"] == 0);
    CHECK_THAT(r.output, Catch::Contains(std::string("profile tiny:") + mode));
  }
  CHECK_THAT(read_json(js)["results"][4]["collective"].get<std::string>(), Catch::Equals("allreduce"));  // hsdp's shards
  unlink(model.c_str());
  unlink(js.c_str());
}

TEST_CASE("a run with --parallel times each kind of group alone and then all at once (checked)", "[cli][parallel]") {
  const std::string model = temp_path("llama-tiny.json"), js = temp_path("parallel.json");
  std::ofstream(model) << R"({"name": "llama-tiny", "hidden": 64, "layers": 4, "ffn": 128, "heads": 4, "vocab": 100,
                              "seq": 16, "micro_batches": 2})";
  ProcessResult r = run_process(ccbench({"run", "--np", "8", "--profile", model, "--parallel", "tp=2,pp=2,dp=2",
                                         "--trace-passes", "2", "--json", js}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("# parallel llama-tiny tp=2,pp=2,dp=2 (8 ranks)") && Catch::Contains("#wrong 0"));
  for (const char* kind : {"\n  tp ", "\n  pp ", "\n  dp "}) CHECK_THAT(r.output, Catch::Contains(kind));
  json j = read_json(js);
  CHECK(j["complete"] == true);
  std::vector<std::string> steps;
  for (const json& s : j["steps"]) {
    steps.push_back(s["kind"].get<std::string>() + " " + s["name"].get<std::string>());
    if (s["name"] != "llama-tiny:step") CHECK(s["total_us"]["samples"] == 2);
  }
  CHECK(steps == std::vector<std::string>{"parallel_alone llama-tiny:tp", "parallel_together llama-tiny:tp",
                                          "parallel_alone llama-tiny:pp", "parallel_together llama-tiny:pp",
                                          "parallel_alone llama-tiny:dp", "parallel_together llama-tiny:dp",
                                          "parallel_alone llama-tiny:step", "parallel_together llama-tiny:step"});
  CHECK(j["steps"][0]["calls"] == 2 * 4 * 2);  // a stage's 2 blocks x 4 AllReduces x 2 micro-batches

  // Listed without running: each stage's groups and their steps.
  ProcessResult listed = run_process(ccbench({"run", "--list-profiles", "--np", "8", "--profile", model, "--parallel", "tp=2,pp=2"}));
  INFO(listed.output);
  CHECK(listed.status == 0);
  CHECK_THAT(listed.output, Catch::Contains("llama-tiny as tp=2,pp=2,dp=2 over 8 ranks") &&
                                Catch::Contains("ranks 4..7, their pp groups of 2 (rank 4's: 0,4)") &&
                                Catch::Contains("llama-tiny:dp stage 1"));

  // One kind of group only (dp is what the world leaves: 1): one group per rank, no threads beside it.
  ProcessResult tp_only = run_process(ccbench({"run", "--np", "4", "--profile", model, "--parallel", "tp=4", "--trace-passes", "1"}));
  INFO(tp_only.output);
  CHECK(tp_only.status == 0);
  CHECK_THAT(tp_only.output, Catch::Contains("tp=4,pp=1,dp=1") && Catch::Contains("#wrong 0"));
  CHECK_THAT(tp_only.output, !Catch::Contains("\n  dp "));
  unlink(model.c_str());
  unlink(js.c_str());
}

TEST_CASE("a trace is replayed in order and its total reported", "[cli][trace]") {
  const std::string trace = temp_path("t.jsonl"), js = temp_path("t.json");
  write_text(trace,
             "{\"op\": \"allreduce\", \"bytes\": 65536, \"dtype\": \"float\"}\n"
             "{\"op\": \"all_gather\", \"bytes\": 1000000, \"dtype\": \"bf16\"}\n"
             "{\"op\": \"reduce_scatter\", \"bytes\": 1000000, \"dtype\": \"bf16\"}\n");
  ProcessResult r = run_process(ccbench({"run", "--np", "3", "--trace", trace, "--algo", "ring", "--json", js}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("3 calls") && Catch::Contains("#wrong 0"));
  json j = read_json(js);
  CHECK(j["steps"][0]["kind"] == "trace");
  CHECK(j["steps"][0]["total_us"]["samples"] == 5);

  write_text(trace, "{\"op\": \"allreduce\", \"bytes\": 64, \"dtype\": \"float\"}\n{\"op\": \"allreduce\", \"dtype\": \"float\"}\n");
  ProcessResult bad = run_process(ccbench({"run", "--np", "2", "--trace", trace}));
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains(trace + ":2: missing field 'bytes'"));
  unlink(trace.c_str());
  unlink(js.c_str());
}

TEST_CASE("bad profile, rate and output flags: one line, exit 2, no rank started", "[cli][profiles]") {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {Case{{"--profile", "llama9-1b"}, "unknown profile 'llama9-1b'"},
                        Case{{"--profile", "llama2-7b:pipeline"}, "use ddp, tp, fsdp, pp, zero1, zero2, hsdp, ep"},
                        Case{{"--profile", "llama2-7b:tp", "--sizes", "1M"}, "drop -b, -e and --sizes"},
                        Case{{"--profile", "llama2-7b:fsdp", "-d", "half"}, "drop --collective and -d"},
                        Case{{"--line-rate", "100GB"}, "bits per second"},
                        Case{{"--trace", "/nonexistent.jsonl"}, "cannot read --trace"}}) {
    auto args = ccbench({"run", "--np", "2"});
    args.insert(args.end(), c.args.begin(), c.args.end());
    ProcessResult r = run_process(args);
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
}

TEST_CASE("a run that dies keeps every size it measured in the JSON", "[cli][record]") {
  const std::string js = temp_path("dies.json");
  // The second size cannot finish: once the first is on disk, every process of the
  // job (all have this JSON path in their arguments) is killed.
  auto job = std::async(std::launch::async, [&] {
    return run_process(ccbench({"run", "--np", "2", "--sizes", "64K,256M", "-n", "1000", "--algo", "ring", "--json", js}),
                       {}, std::chrono::seconds(120));
  });
  bool first_on_disk = false;
  for (int i = 0; i < 600 && !first_on_disk; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    try {
      first_on_disk = read_json(js)["results"].size() == 1;
    } catch (const std::exception&) {
      // not written yet
    }
  }
  CHECK(first_on_disk);
  // "[d]ies" matches the job's arguments but not pkill's own command line.
  const std::string pattern = js.substr(0, js.size() - 9) + "[d]ies.json";
  CHECK(system(("pkill -KILL -f '" + pattern + "'").c_str()) == 0);
  ProcessResult r = job.get();
  INFO(r.output);
  CHECK(r.status == 137);
  json j = read_json(js);
  CHECK(j["complete"] == false);
  REQUIRE(j["results"].size() == 1);
  CHECK(j["results"][0]["bytes"] == 65536);
  unlink(js.c_str());
}

TEST_CASE("the IPoIB transport: refused in one line without IPoIB, runs over a forced netdev", "[cli][ipoib]") {
  const std::string empty_host = temp_path("no-ipoib");  // a host whose sysfs has no IPoIB netdev
  std::filesystem::create_directories(empty_host + "/sys/class/net");
  ProcessResult none = run_process(ccbench({"run", "--np", "2", "--transport", "ipoib", "--ipoib-root", empty_host}));
  CHECK(none.status == 2);
  CHECK_THAT(none.output, Catch::Contains("no IPoIB interface on this host"));
  CHECK(std::count(none.output.begin(), none.output.end(), '\n') == 1);
  std::filesystem::remove_all(empty_host);
  ProcessResult lo = run_process(ccbench({"run", "--np", "2", "--transport", "ipoib", "--iface", "lo"}));
  CHECK(lo.status == 2);
  CHECK_THAT(lo.output, Catch::Contains("lo is not an IPoIB interface"));
  ProcessResult forced = run_process(ccbench({"run", "--np", "2", "--transport", "ipoib", "--iface", "lo", "--ipoib-force",
                                              "--sizes", "1M", "-n", "3", "--tcp-streams", "2"}));
  INFO(forced.output);
  CHECK(forced.status == 0);
  CHECK_THAT(forced.output, Catch::Contains("transport=[ipoib streams=2") && Catch::Contains("Out of bounds values : 0 OK"));
  ProcessResult wrong = run_process(ccbench({"run", "--np", "2", "--transport", "verbs", "--ipoib-force"}));
  CHECK(wrong.status == 2);
  CHECK_THAT(wrong.output, Catch::Contains("--ipoib-force is an IPoIB flag"));
}

#ifdef CCB_BENCH
TEST_CASE("the Google Benchmark driver: counters in its JSON, only rank 0 reports", "[bench]") {
  const std::string out = temp_path("gb.json");
  std::vector<std::string> args{CCB_BENCH, "--sizes", "64K", "--collectives", "allreduce,all_gather", "--algo", "ring",
                                "--iters", "4", "--profile", "bert-large:tp", "--line-rate", "10G",
                                "--benchmark_out=" + out, "--benchmark_out_format=json"};
  auto self = args;
  self.insert(self.begin() + 1, {"--np", "2"});
  auto launched = ccbench({"launch", "--np", "3", "--"});
  launched.insert(launched.end(), args.begin(), args.end());
  for (const auto& argv : {self, launched}) {
    ProcessResult r = run_process(argv);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') < 40);  // one report, not one per rank
    json j = read_json(out);
    REQUIRE(j["benchmarks"].size() == 4);  // 2 sweeps, 1 profile entry, its step
    const json& b = j["benchmarks"][0];
    CHECK(b["name"].get<std::string>().rfind("allreduce/ring/tcp/65536", 0) == 0);
    CHECK(b["iterations"] == 4);
    for (const char* c : {"algbw_GBps", "busbw_GBps", "p50_us", "p95_us", "p99_us", "link_util_pct",
                          "counter_util_pct", "cpu_pct", "wrong"})
      CHECK(b[c].is_number());
    CHECK(b["wrong"] == 0);
    CHECK(b["link_util_pct"].get<double>() > 0);
    CHECK(j["benchmarks"][3]["name"].get<std::string>().rfind("bert-large:tp/step/ring/tcp", 0) == 0);
    CHECK(j["context"]["ccbench_transport"].get<std::string>().rfind("tcp", 0) == 0);
  }
  // Perf labs compare nights with Google Benchmark's own tool (libbenchmark-tools).
  if (access("/usr/share/benchmark/compare.py", R_OK) == 0) {
    ProcessResult cmp = run_process({"/usr/bin/python3", "/usr/share/benchmark/compare.py", "benchmarks", out, out});
    INFO(cmp.output);
    CHECK(cmp.status == 0);
    CHECK_THAT(cmp.output, Catch::Contains("allreduce/ring/tcp/65536") && Catch::Contains("OVERALL_GEOMEAN"));
  } else {
    WARN("libbenchmark-tools not installed: compare.py not tried (tools/install-deps.sh installs it)");
  }
  unlink(out.c_str());
}

TEST_CASE("the Google Benchmark driver under mpirun", "[bench][mpi]") {
  if (system("command -v mpirun >/dev/null 2>&1") != 0) {
    WARN("mpirun not installed: skipped (tools/install-deps.sh installs openmpi-bin)");
    return;
  }
  const std::string out = temp_path("mpi.json");
  ProcessResult r = run_process({"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", CCB_BENCH, "--sizes",
                                 "64K", "--collectives", "allreduce", "--algo", "ring", "--iters", "3",
                                 "--benchmark_out=" + out, "--benchmark_out_format=json"},
                                {{"ASAN_OPTIONS", "detect_leaks=0"}});  // Open MPI's own leaks
  INFO(r.output);
  REQUIRE(r.status == 0);
  json j = read_json(out);
  REQUIRE(j["benchmarks"].size() == 1);
  CHECK(j["context"]["ccbench_bootstrap"] == "mpi");
  CHECK(j["benchmarks"][0]["wrong"] == 0);
  unlink(out.c_str());
}
#endif
