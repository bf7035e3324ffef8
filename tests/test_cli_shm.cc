// `--transport shm` as a user runs it: every collective bit-exact over shared memory,
// and a rank killed mid-run ends the job in seconds with nothing left in /dev/shm.
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <thread>

#include "json_file.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb::test;

namespace {

std::set<std::string> dev_shm() {
  std::set<std::string> names;
  if (DIR* d = opendir("/dev/shm")) {
    while (dirent* e = readdir(d)) names.insert(e->d_name);
    closedir(d);
  }
  return names;
}

}  // namespace

TEST_CASE("shm: every collective and algorithm is bit-exact, eager and single-copy sizes", "[cli][shm]") {
  const auto before = dev_shm();
  for (std::vector<std::string> extra : {std::vector<std::string>{"--algo", "ring,tree,rd"},
                                         {"--algo", "ring", "-d", "bfloat16", "-o", "avg", "--in-place"},
                                         {"--collective", "reduce_scatter", "--algo", "ring", "-o", "max"},
                                         {"--collective", "all_gather", "--algo", "ring", "--in-place"},
                                         {"--collective", "broadcast", "--root", "2"},
                                         {"--collective", "reduce", "-d", "int64", "-o", "prod"},
                                         {"--collective", "all_to_all"},
                                         {"--collective", "send_recv"},
                                         {"--collective", "gather"},
                                         {"--collective", "scatter", "--root", "1"}}) {
    auto args = ccbench({"run", "--transport", "shm", "--np", "4", "--sizes", "96,300K,3M", "-n", "3", "-w", "1"});
    args.insert(args.end(), extra.begin(), extra.end());
    ProcessResult r = run_process(args);
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("transport=[shm") && Catch::Contains("Out of bounds values : 0 OK"));
  }
  CHECK(dev_shm() == before);
}

TEST_CASE("shm: a flag of another transport is refused, not ignored", "[cli][shm][errors]") {
  ProcessResult r = run_process(ccbench({"run", "--transport", "shm", "--np", "2", "--tcp-streams", "2"}));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--tcp-streams is a TCP flag; it has no effect with --transport shm"));
}

TEST_CASE("shm: a rank killed with -9 mid-collective ends the job in seconds, naming it, nothing left in /dev/shm",
          "[cli][shm][fault]") {
  const auto before = dev_shm();
  ProcessResult r = run_and_signal(SIGKILL, "shmkill" + std::to_string(getpid()), 20, {"--transport", "shm"});
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Catch::Contains("rank 1 was killed by signal"));
  CHECK_THAT(r.output, Catch::Contains("connection to rank 1 lost") || Catch::Contains("rank 1 left the job"));
  CHECK(r.seconds < 60);
  CHECK(dev_shm() == before);
}

TEST_CASE("the record keeps the layout: hosts, ranks per host, each rank's host, local rank and NIC", "[cli][shm]") {
  TempDir dir;
  const std::string json = dir / "r.json";
  ProcessResult r = run_process(ccbench({"run", "--transport", "shm", "--np", "3", "--sizes", "1K", "-n", "2", "--json", json}));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto layout = read_json(json).at("job").at("layout");
  CHECK(layout.at("hosts").size() == 1);
  CHECK(layout.at("ranks_per_host") == 3);
  REQUIRE(layout.at("ranks").size() == 3);
  for (int rank = 0; rank < 3; ++rank) {
    CHECK(layout.at("ranks")[rank].at("local_rank") == rank);
    CHECK(layout.at("ranks")[rank].at("host") == layout.at("hosts")[0]);
  }
  // More ranks than CPUs: the ranks yield while they spin, and the launcher widens the spin.
  const auto wait = read_json(json).at("job").at("wait");
  const bool more_ranks_than_cpus = 3 > std::thread::hardware_concurrency();
  CHECK(wait.at("yield") == more_ranks_than_cpus);
  CHECK(wait.at("spin_us") == (more_ranks_than_cpus ? 1000 : 50));
}
