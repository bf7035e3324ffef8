// ccbench as a user runs it: good runs under each launcher, and bad input that must
// end with one clear line and a non-zero status.
#include <infiniband/verbs.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>

#include "bootstrap/local_launcher.h"
#include "net/socket_util.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::test;

namespace {

std::map<std::string, std::string> rank_env(int rank, int world, int port, const std::string& token = "t") {
  return {{"CCB_RANK", std::to_string(rank)}, {"CCB_WORLD_SIZE", std::to_string(world)},
          {"CCB_MASTER_ADDR", "127.0.0.1"}, {"CCB_MASTER_PORT", std::to_string(port)}, {"CCB_TOKEN", token}};
}

bool has_mpirun() {
#ifndef CCB_HAVE_MPI
  return false;  // built with -DCCB_WITH_MPI=OFF
#endif
  return system("command -v mpirun >/dev/null 2>&1") == 0;
}

// The algo column of the table row for `size` bytes ("" when there is none).
std::string algo_of_row(const std::string& output, const std::string& size) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream cells(line);
    std::string bytes, count, type, redop, algo;
    if (cells >> bytes >> count >> type >> redop >> algo && bytes == size) return algo;
  }
  return "";
}

}  // namespace

TEST_CASE("the default run: 4 ranks, --algo auto, the LLM size list, no wrong results", "[cli]") {
  ProcessResult r = run_process(ccbench({"run", "-n", "5", "-w", "1"}), {}, std::chrono::seconds(300));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("algo=auto ranks=4"));
  // The algo column names what ran: recursive doubling for 8 B, the ring for 25 MiB.
  CHECK(algo_of_row(r.output, "8") == "rd");
  CHECK(algo_of_row(r.output, "26214400") == "ring");
  CHECK_THAT(r.output, Catch::Contains("26214400") && Catch::Contains("busbw_GBps") && Catch::Contains("#wrong"));
  CHECK_THAT(r.output, !Catch::Contains("FAILED"));
}

TEST_CASE("types, operators and collectives beyond the default check out", "[cli]") {
  for (std::vector<std::string> extra : {std::vector<std::string>{"-d", "bfloat16", "-o", "avg"},
                                         {"-d", "int64", "-o", "prod", "--in-place"},
                                         {"--tune", "-d", "int32", "--in-place"},
                                         {"--algo", "rd", "-o", "avg"},
                                         {"-d", "half", "-o", "min", "--tcp-streams", "3"},
                                         {"--collective", "reduce_scatter", "--algo", "ring", "-o", "max"},
                                         {"--collective", "all_gather", "--algo", "ring", "--in-place"},
                                         // Segments of many chunks larger than the eager limit over small
                                         // socket buffers: the ring's waits must not form a cycle.
                                         {"--collective", "reduce_scatter", "--algo", "ring", "--chunk-bytes", "128K",
                                          "--slots", "1", "--socket-buffer", "64K", "--timeout", "20"},
                                         {"--collective", "reduce_scatter", "--algo", "ring", "--chunk-bytes", "128K",
                                          "--socket-buffer", "64K", "--timeout", "20", "--in-place"},
                                         {"--algo", "ring,tree", "--chunk-bytes", "128K", "--slots", "1",
                                          "--socket-buffer", "64K", "--timeout", "20"},
                                         {"--collective", "all_gather", "--algo", "ring", "--chunk-bytes", "128K",
                                          "--socket-buffer", "64K", "--timeout", "20"}}) {
    auto args = ccbench({"run", "--np", "3", "--sizes", "96,3M", "-n", "3", "-w", "1"});
    args.insert(args.end(), extra.begin(), extra.end());
    ProcessResult r = run_process(args);
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("Out of bounds values : 0 OK"));
  }
}

TEST_CASE("two processes started by hand with CCB_* (and torchrun's names) run together", "[cli][launch]") {
  for (bool torch : {false, true}) {
    int port = pick_free_port("127.0.0.1");
    auto env_for = [&](int rank) {
      if (!torch) return rank_env(rank, 2, port);
      return std::map<std::string, std::string>{{"RANK", std::to_string(rank)}, {"WORLD_SIZE", "2"},
                                                {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::to_string(port)}};
    };
    auto args = ccbench({"run", "--sizes", "8,1M", "-n", "3"});
    auto other = std::async(std::launch::async, [&] { return run_process(args, env_for(1)); });
    ProcessResult r0 = run_process(args, env_for(0));
    ProcessResult r1 = other.get();
    INFO(r0.output << r1.output);
    CHECK(r0.status == 0);
    CHECK(r1.status == 0);
    CHECK_THAT(r0.output, Catch::Contains("ranks=2 bootstrap=store"));
    CHECK(r1.output.find("busbw") == std::string::npos);  // only rank 0 prints
  }
}

TEST_CASE("a launcher's local rank that disagrees with the hosts: one line, exit 2, naming it", "[cli][launch][errors]") {
  int port = pick_free_port("127.0.0.1");
  auto env_for = [&](int rank) {  // both say LOCAL_RANK=0, but they share this host
    return std::map<std::string, std::string>{{"RANK", std::to_string(rank)}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "0"},
                                              {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::to_string(port)}};
  };
  auto args = ccbench({"run", "--sizes", "8", "-n", "3", "--timeout", "10"});
  auto other = std::async(std::launch::async, [&] { return run_process(args, env_for(1)); });
  ProcessResult r0 = run_process(args, env_for(0));
  ProcessResult r1 = other.get();
  INFO(r0.output << r1.output);
  CHECK(r1.status == 2);
  CHECK_THAT(r1.output, Catch::Contains("LOCAL_RANK=0 but rank 1 is local rank 1 of the 2 ranks on host"));
  CHECK(r0.status != 0);
  CHECK(r0.seconds < 10);
}

TEST_CASE("under mpirun, MPI does the bootstrap and the results agree", "[cli][mpi]") {
  if (!has_mpirun()) {
    WARN("mpirun not installed, or ccbench built without MPI: skipped (tools/install-deps.sh installs openmpi-bin)");
    return;
  }
  ProcessResult r = run_process({"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "4", CCB_CCBENCH, "run",
                                 "--sizes", "8,1M,25M", "-n", "3", "-w", "1"},
                                // Open MPI's own allocations outlive MPI_Finalize: not ours to report.
                                {{"ASAN_OPTIONS", "detect_leaks=0"}}, std::chrono::seconds(300));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("ranks=4 bootstrap=mpi") && Catch::Contains("Out of bounds values : 0 OK"));
}

TEST_CASE("bad flags and sizes: one line, status 2, before any rank starts", "[cli][errors]") {
  ProcessResult unknown = run_process(ccbench({"run", "--bogus"}));
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.output, Catch::Contains("--bogus"));
  ProcessResult odd = run_process(ccbench({"run", "--np", "2", "--sizes", "1M,10", "-d", "float"}));
  CHECK(odd.status == 2);
  CHECK_THAT(odd.output, Catch::Contains("size 10 B is not a multiple of 4 B"));
  ProcessResult rs = run_process(ccbench({"run", "--np", "3", "--sizes", "16", "--collective", "reduce_scatter", "--algo", "ring"}));
  CHECK(rs.status == 2);
  CHECK_THAT(rs.output, Catch::Contains("times 3 ranks"));
  ProcessResult tree_rs = run_process(ccbench({"run", "--np", "2", "--collective", "all_gather", "--algo", "tree"}));
  CHECK(tree_rs.status == 2);
  CHECK_THAT(tree_rs.output, Catch::Contains("the tree algorithm does not exist for all_gather: use --algo ring"));
  ProcessResult auto_and_ring = run_process(ccbench({"run", "--np", "2", "--algo", "auto,ring"}));
  CHECK(auto_and_ring.status == 2);
  CHECK_THAT(auto_and_ring.output, Catch::Contains("compare algorithms with --algo ring,tree,rd"));
  ProcessResult tune_ring = run_process(ccbench({"run", "--np", "2", "--algo", "ring", "--tune"}));
  CHECK(tune_ring.status == 2);
  CHECK_THAT(tune_ring.output, Catch::Contains("drop --tune, or use --algo auto"));
  ProcessResult type = run_process(ccbench({"run", "--np", "2", "-d", "float8"}));
  CHECK(type.status == 2);
  CHECK_THAT(type.output, Catch::Contains("unknown data type 'float8'"));
  ProcessResult transport = run_process(ccbench({"run", "--transport", "carrier-pigeon"}));
  CHECK(transport.status == 2);
}

TEST_CASE("launcher and flags disagree on the world size", "[cli][errors]") {
  ProcessResult r = run_process(ccbench({"run", "--np", "3"}), rank_env(0, 2, 1));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--np 3 but the launcher (ccbench) started 2 ranks"));
}

TEST_CASE("no store at the master address: a clear error within the timeout", "[cli][errors]") {
  int port = pick_free_port("127.0.0.1");
  ProcessResult r = run_process(ccbench({"run", "--timeout", "2"}), rank_env(1, 2, port));
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("no rendezvous store answered at 127.0.0.1:" + std::to_string(port)));
  CHECK(r.seconds < 20);
}

TEST_CASE("master port already in use", "[cli][errors]") {
  Fd busy = listen_on(resolve_host("127.0.0.1", 0), 1);
  int port = local_address_of(busy.get()).port();
  ProcessResult r = run_process(ccbench({"run", "--timeout", "2"}), rank_env(0, 2, port));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("127.0.0.1:" + std::to_string(port) + " is already in use"));
}

TEST_CASE("a rank with the wrong job token is refused", "[cli][errors]") {
  int port = pick_free_port("127.0.0.1");
  auto args = ccbench({"run", "--timeout", "3", "--sizes", "8"});
  auto r0f = std::async(std::launch::async, [&] { return run_process(args, rank_env(0, 2, port, "right")); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ProcessResult r1 = run_process(args, rank_env(1, 2, port, "wrong"));
  ProcessResult r0 = r0f.get();
  CHECK(r1.status != 0);
  CHECK_THAT(r1.output, Catch::Contains("job token mismatch"));
  CHECK(r0.status != 0);  // rank 0 gives up on the missing rank instead of hanging
  CHECK(r0.seconds < 30);
}

TEST_CASE("a flag of the other transport is refused, not ignored", "[cli][errors]") {
  ProcessResult qps = run_process(ccbench({"run", "--np", "2", "--qps", "2"}));
  CHECK(qps.status == 2);
  CHECK_THAT(qps.output, Catch::Contains("--qps is a Verbs flag; it has no effect with --transport tcp"));
  ProcessResult streams = run_process(ccbench({"run", "--np", "2", "--transport", "verbs", "--tcp-streams", "2"}));
  CHECK(streams.status == 2);
  CHECK_THAT(streams.output, Catch::Contains("--tcp-streams is a TCP flag; it has no effect with --transport verbs"));
}

TEST_CASE("verbs on a host without an RDMA device: one line, status 2", "[cli][errors]") {
  int n = 0;
  if (ibv_device** list = ibv_get_device_list(&n)) ibv_free_device_list(list);
  if (n > 0) {
    WARN("this host has an RDMA device: skipped (verbs_tests cover the device errors)");
    return;
  }
  for (std::string np : {"1", "3"}) {
    ProcessResult r = run_process(ccbench({"run", "--transport", "verbs", "--np", np, "--sizes", "1M"}));
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::StartsWith("ccbench: error: no RDMA device found") && Catch::Contains("--transport tcp"));
  }
}

TEST_CASE("a run with --debug traces connections and posts per rank and CCB_DEBUG=PATH writes new files only", "[cli][debug]") {
  ProcessResult r = run_process(ccbench({"run", "--np", "2", "--sizes", "8", "-n", "1", "-w", "0", "--debug"}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("ccbench debug: rank 0: connected to rank 1 over tcp on lo") &&
                           Catch::Contains("ccbench debug: rank 1: post send to rank 0, tag "));
  TempDir tmp;
  const std::string base = tmp.path + "/trace";
  ProcessResult first = run_process(ccbench({"run", "--np", "2", "--sizes", "8", "-n", "1", "-w", "0"}), {{"CCB_DEBUG", base}});
  REQUIRE(first.status == 0);
  CHECK_THAT(first.output, !Catch::Contains("ccbench debug"));
  for (const char* rank : {"0", "1"}) {
    std::ifstream in(base + "." + rank);
    std::stringstream text;
    text << in.rdbuf();
    CHECK_THAT(text.str(), Catch::StartsWith(std::string("ccbench debug: rank ") + rank + ": connected to rank"));
  }
  ProcessResult again = run_process(ccbench({"run", "--np", "2", "--sizes", "8", "-n", "1", "-w", "0"}), {{"CCB_DEBUG", base}});
  CHECK(again.status == 0);
  CHECK_THAT(again.output, Catch::Contains("cannot create " + base + ".0 (it exists") && Catch::Contains("ccbench debug: rank 0"));
}
