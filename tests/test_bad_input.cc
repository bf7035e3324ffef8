// Hostile or mistaken input, as a new user would give it: every number from a flag or a
// file is checked, every output path judged before any rank starts, and the files a
// run writes never harm what they point at. Each case is one line and exit 2.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <future>

#include "core/files.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::test;

namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool is_char_device(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

// `base` plus `extra` fails before any rank starts: exit 2 and one line saying `says`.
void expect_one_line_error(std::vector<std::string> base, const std::vector<std::string>& extra, const std::string& says) {
  base.insert(base.end(), extra.begin(), extra.end());
  ProcessResult r = run_process(base);
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains(says));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

struct BadCase {
  std::vector<std::string> args;
  std::string says;
};

}  // namespace

TEST_CASE("numbers that wrap, vanish or never end: one line, exit 2", "[cli][errors]") {
  TempDir tmp;
  const std::string dir = tmp.path;
  write(dir + "/t.jsonl", "{\"op\": \"allreduce\", \"bytes\": 1024, \"dtype\": \"float\"}\n");
  write(dir + "/wide.json", "{\"hidden\": 4294967296, \"ffn\": 8, \"layers\": 2, \"heads\": 1, \"vocab\": 4294967296, "
                            "\"seq\": 8}");
  write(dir + "/deep.json", "{\"hidden\": 4096, \"layers\": 100000000, \"heads\": 32, \"vocab\": 32000, \"seq\": 4096}");
  write(dir + "/long.json", "{\"hidden\": 4294967296, \"ffn\": 8, \"layers\": 2, \"heads\": 1, \"vocab\": 8, "
                            "\"seq\": 4294967296, \"micro_batch\": 4294967296}");
  write(dir + "/sum.jsonl", "{\"op\": \"allreduce\", \"bytes\": 18446744073709551612, \"dtype\": \"float\"}\n"
                            "{\"op\": \"allreduce\", \"bytes\": 1024, \"dtype\": \"float\"}\n");
  symlink("/dev/zero", (dir + "/zero.json").c_str());
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {
           Case{{"--socket-buffer", "3G"}, "--socket-buffer 3G is above the limit"},
           Case{{"--socket-buffer", "4G"}, "--socket-buffer 4G is above the limit"},
           Case{{"--timeout", "nan"}, "--timeout: 'nan' is not a finite number"},
           Case{{"--timeout", "inf"}, "--timeout: 'inf' is not a finite number"},
           Case{{"--timeout", "1e300"}, "--timeout: '1e300' is not a finite number"},
           Case{{"-b", "8", "-e", "64", "-f", "nan"}, "'nan' is not a finite number"},
           Case{{"-b", "8", "-e", "64", "-f", "inf"}, "'inf' is not a finite number"},
           Case{{"-b", "8", "-e", "1G", "-f", "1.0001"}, "gives more than 1000 sizes"},
           Case{{"--line-rate", "inf"}, "bad --line-rate 'inf'"},
           Case{{"--sizes", "64G"}, "is available: pick smaller sizes"},
           Case{{"--trace", "/dev/zero"}, "--trace '/dev/zero' is not a regular file"},
           Case{{"--profile", dir + "/zero.json"}, "is not a regular file"},
           Case{{"--profile", dir + "/wide.json:ddp"}, "wide.json: the elements of embed_tokens.weight overflows 64 bits"},
           Case{{"--profile", dir + "/long.json:tp"}, "long.json: micro_batch x seq x hidden x bytes per element overflows"},
           Case{{"--profile", dir + "/deep.json"}, "deep.json: 'layers' is 100000000, above the limit"},
           Case{{"--trace", dir + "/sum.jsonl"}, "overflows 64 bits"},
           Case{{"--json", ""}, "--json needs a file name"},
           Case{{"--csv", ""}, "--csv needs a file name"},
           Case{{"--json", dir + "/r", "--csv", dir + "/r"}, "--json and --csv name the same file"},
           Case{{"--trace", dir + "/t.jsonl", "--json", dir + "/t.jsonl"}, "is the file --trace reads"},
           Case{{"--json", dir}, "is a folder"},
           Case{{"--json", "/nonexistent/dir/r.json"}, "the folder '/nonexistent/dir' does not exist"},
           Case{{"--iface", "lo", "--bind", "127.0.0.2"}, "both choose the data address: give one of them"},
           Case{{"--bind", "192.0.2.77"}, "192.0.2.77 is not an address of this host"},
           Case{{"--iface", "nope0"}, "no network interface named 'nope0'"},
           Case{{"--transport", "ipoib", "--ipoib-force", "--iface", "lo", "--bind", "127.0.0.1"},
                "--bind does not apply to --transport ipoib"},
       }) {
    auto args = ccbench({"run", "--np", "2", "--timeout", "30"});
    args.insert(args.end(), c.args.begin(), c.args.end());
    if (c.args.front() == "--timeout") args.erase(args.begin() + 4, args.begin() + 6);
    ProcessResult r = run_process(args);
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK(r.seconds < 20);  // judged before any rank starts: nothing waits for a timeout
  }
  CHECK(slurp(dir + "/t.jsonl").find("allreduce") != std::string::npos);  // the trace is intact
}

TEST_CASE("a job that would run out of descriptors says so, with the numbers", "[cli][errors]") {
  ProcessResult r = run_process({"sh", "-c", "ulimit -n 256 && exec \"$0\" run --np 300 --sizes 8", CCB_CCBENCH});
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("too many open files: ulimit -n is 256, world size 300 needs about"));
}

TEST_CASE("the Google Benchmark drivers fail when they ran nothing", "[cli][errors]") {
#ifdef CCB_BENCH
  for (const char* filter : {"--benchmark_filter=[", "--benchmark_filter=no_such_benchmark"}) {
    ProcessResult r = run_process({CCB_BENCH, "--np", "2", "--sizes", "64K", filter});
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("--benchmark_filter"));
  }
  ProcessResult reduce = run_process({CCB_BENCH_REDUCE, "--benchmark_filter=no_such_benchmark"});
  CHECK(reduce.status != 0);
#endif
}

TEST_CASE("a --bind-numa run on a machine without NUMA information for the NIC: one line and exit 2", "[cli][errors]") {
  expect_one_line_error(ccbench({"run", "--np", "2", "--sizes", "8"}), {"--bind-numa"},
                        "--bind-numa: this machine does not say which NUMA node lo is on");
  expect_one_line_error(ccbench({"run", "--np", "2", "--sizes", "8"}), {"--bind-numa", "--bind-cores"},
                        "--bind-numa and --bind-cores both choose the CPUs: give one of them");
}

TEST_CASE("the benchmark driver takes ccbench's transport flags and refuses one of another transport", "[cli][errors]") {
#ifdef CCB_BENCH
  expect_one_line_error({CCB_BENCH, "--np", "2"}, {"--qps", "2"}, "--qps is a Verbs flag; it has no effect with --transport tcp");
  expect_one_line_error({CCB_BENCH, "--np", "2"}, {"--transport", "verbs", "--tcp-streams", "2"},
                        "--tcp-streams is a TCP flag; it has no effect with --transport verbs");
#endif
}

TEST_CASE("a link planted at the result's path or at any temporary name is never followed", "[cli][files]") {
  TempDir tmp;
  const std::string dir = tmp.path, victim = dir + "/victim", json = dir + "/r.json";
  write(victim, "precious");
  // The old temporary name was r.json.tmp.<pid>; exec keeps the shell's pid, so plant it.
  ProcessResult r = run_process({"sh", "-c", "ln -s \"$1\" \"$2.tmp.$$\" && exec \"$0\" run --np 1 --sizes 8 -n 2 --json \"$2\"",
                                 CCB_CCBENCH, victim, json});
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(slurp(victim) == "precious");
  CHECK(slurp(json).find("ccbench.result") != std::string::npos);
  const std::string link = dir + "/link.json";
  symlink(victim.c_str(), link.c_str());
  ProcessResult refused = run_process(ccbench({"run", "--np", "2", "--sizes", "8", "--json", link}));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.output, Catch::Contains("is a symbolic link"));
  CHECK(slurp(victim) == "precious");
}

TEST_CASE("a FIFO or the process's own stdout gets the record once, in place", "[cli][files]") {
  TempDir tmp;
  const std::string dir = tmp.path, fifo = dir + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  auto reader = std::async(std::launch::async, [&] { return slurp(fifo); });
  ProcessResult r = run_process(ccbench({"run", "--np", "2", "--sizes", "8,1K", "-n", "2", "--json", fifo}));
  INFO(r.output);
  CHECK(r.status == 0);
  std::string got = reader.get();
  CHECK(std::count(got.begin(), got.end(), '{') > 3);
  CHECK(got.find("\"complete\": true") != std::string::npos);
  CHECK(got.find("ccbench.result") == got.rfind("ccbench.result"));  // one record, not one per size
  ProcessResult out = run_process(ccbench({"run", "--np", "2", "--sizes", "8", "-n", "2", "--csv", "/dev/stdout"}));
  CHECK(out.status == 0);
  CHECK_THAT(out.output, Catch::Contains("host,transport,ranks"));
}

TEST_CASE("as root, --json /dev/null leaves /dev/null a character device", "[cli][files][root]") {
  if (geteuid() != 0 || system("command -v unshare >/dev/null 2>&1") != 0) {
    WARN("needs root and unshare: skipped");
    return;
  }
  // In a mount namespace of its own, /dev is a fresh tmpfs whose null is a new node:
  // the host's /dev/null is never at risk, and the old bug would replace this one.
  const std::string script =
      "set -e; mount -t tmpfs ccb-dev /dev; mknod -m 666 /dev/null c 1 3; mknod -m 444 /dev/urandom c 1 9; "
      "\"$0\" run --np 2 --sizes 8 -n 2 --json /dev/null >/dev/null; stat -c %F /dev/null";
  ProcessResult r = run_process({"unshare", "--mount", "--propagation", "private", "sh", "-c", script, CCB_CCBENCH});
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("character special file"));
  CHECK(is_char_device("/dev/null"));
}

TEST_CASE("a root outside the world, a peer map that is not a permutation: one line, exit 2", "[cli][errors]") {
  for (const BadCase& c : {
           BadCase{{"--collective", "broadcast", "--root", "2"}, "--root 2 is outside the world of 2 ranks: use 0..1"},
           BadCase{{"--collective", "reduce", "--root", "-1"}, "--root -1 is outside the world of 2 ranks"},
           BadCase{{"--collective", "allreduce", "--root", "1"}, "--root applies to broadcast,reduce,gather,scatter, not allreduce"},
           BadCase{{"--collective", "send_recv", "--peer-map", "1,1"}, "--peer-map 1,1 is not a permutation of 0..1"},
           BadCase{{"--collective", "send_recv", "--peer-map", "1,0,2"}, "--peer-map has 3 entries for a world of 2 ranks"},
           BadCase{{"--collective", "send_recv", "--peer-map", "1,x"}, "must list one rank number per rank"},
           BadCase{{"--collective", "send_recv", "--peer-map", "0,99999999999"}, "must list one rank number per rank"},
           BadCase{{"--collective", "all_to_all", "--peer-map", "1,0"}, "--peer-map applies to send_recv, not all_to_all"},
           BadCase{{"--collective", "hypercube"}, "unknown collective 'hypercube'"},
           BadCase{{"--collective", "broadcast", "--algo", "rd"}, "the rd algorithm does not exist for broadcast"},
           BadCase{{"--memory", "cuda"}, "--memory: unknown memory space 'cuda': this build has host"},
       })
    expect_one_line_error(ccbench({"run", "--np", "2", "--timeout", "30", "--sizes", "1K"}), c.args, c.says);
}

TEST_CASE("all_to_allv's splits: a wrong shape, a negative entry, rows that disagree with the buffer", "[cli][errors]") {
  TempDir tmp;
  const std::string dir = tmp.path;
  write(dir + "/shape.txt", "4 4\n4 4\n4 4\n");
  write(dir + "/neg.txt", "4 -4\n4 4\n");
  write(dir + "/ok.txt", "4 4\n8 0\n");
  for (const BadCase& c : {
           BadCase{{"--splits", dir + "/shape.txt"}, "has 3 rows for 2 ranks: give one row per sending rank"},
           BadCase{{"--splits", dir + "/neg.txt", "-d", "uint8"}, "row 1 has a negative entry (-4)"},
           BadCase{{"--splits", dir + "/ok.txt", "--sizes", "4"}, "row 1 sums to 8 B, more than the buffer of 4 B"},
           BadCase{{"--splits", dir + "/ok.txt", "--sizes", "16"}, "largest row sums to 8 B, not the buffer of 16 B"},
           BadCase{{"--splits", dir + "/nothing.txt"}, "cannot read --splits"},
           BadCase{{"--splits", "moe:skew=high"}, "'skew=high' is not skew=S"},
           BadCase{{}, "all_to_allv needs --splits"},
           BadCase{{"--splits", "moe", "--in-place"}, "--in-place does not apply to all_to_allv"},
       })
    expect_one_line_error(ccbench({"run", "--np", "2", "--timeout", "30", "--collective", "all_to_allv"}), c.args, c.says);
  ProcessResult other = run_process(ccbench({"run", "--np", "2", "--splits", "moe"}));
  CHECK(other.status == 2);
  CHECK_THAT(other.output, Catch::Contains("--splits applies to all_to_allv, not allreduce"));
  // The hottest expert's receive buffer counts before any rank starts: here its 16
  // ranks' sends and receives would fit if receives were the send buffer's size.
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  uint64_t kib = 0;
  while (meminfo >> key >> kib >> unit && key != "MemAvailable:") {}
  const uint64_t mib = std::max<uint64_t>(kib / 1024 / 64, 1);  // 16 ranks x 2 x this: half of what is free
  expect_one_line_error(ccbench({"run", "--np", "16", "--collective", "all_to_allv"}),
                        {"--splits", "moe:skew=8,seed=1", "--sizes", std::to_string(mib) + "M"},
                        "needs send and receive buffers of");
  // A good matrix runs, checked: the buffer is the largest row, rank 1 sends only to 0.
  ProcessResult ok = run_process(ccbench({"run", "--np", "2", "--collective", "all_to_allv", "--splits", dir + "/ok.txt"}));
  INFO(ok.output);
  CHECK(ok.status == 0);
  CHECK_THAT(ok.output, Catch::Contains("# Out of bounds values : 0 OK"));
}

TEST_CASE("bad --parallel input: a product that is not the world or a bad spec or a stage that splits a block",
          "[cli][errors][parallel]") {
  TempDir tmp;
  const std::string model = tmp.path + "/tiny.json";
  write(model, R"({"name": "tiny", "hidden": 8, "layers": 6, "ffn": 16, "heads": 2, "vocab": 10, "seq": 4})");
  for (const BadCase& c : {
           BadCase{{"--profile", model, "--parallel", "tp=2,pp=2,dp=2"},
                   "--parallel tp=2,pp=2,dp=2 makes 8 ranks but the job has 4: make tp x pp x dp equal the number of ranks"},
           BadCase{{"--profile", model, "--parallel", "tp=two"}, "--parallel 'tp=two': tp must be a whole number"},
           BadCase{{"--profile", model, "--parallel", "cp=2"}, "each part is tp=N, pp=N or dp=N"},
           BadCase{{"--profile", model, "--parallel", "tp=1,pp=4"}, "--parallel pp=4 does not divide tiny's 6 transformer blocks"},
           BadCase{{"--profile", model + ":tp", "--parallel", "tp=2"}, "give one --profile MODEL, without a ':mode'"},
           BadCase{{"--parallel", "tp=2"}, "--parallel splits a model's step into its groups: add --profile MODEL"},
       })
    expect_one_line_error(ccbench({"run", "--np", "4", "--timeout", "30"}), c.args, c.says);
}
