// A rank that dies or stalls mid-collective: the others must stop, non-zero, within
// the timeout, naming the rank; the job never hangs.
#include <signal.h>
#include <string.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <thread>

#include "process_util.h"

using namespace ccb::test;

namespace {

// The pid of the process whose environment holds both `tag` and CCB_RANK=rank.
pid_t find_rank(const std::string& tag, int rank) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (env.find("CCB_TEST_TAG=" + tag) != std::string::npos &&
        env.find(std::string("CCB_RANK=") + std::to_string(rank) + '\0') != std::string::npos)
      return static_cast<pid_t>(std::stol(entry.path().filename().string()));
  }
  return -1;
}

ProcessResult run_and_signal(int sig, const std::string& tag, double timeout_s) {
  auto job = std::async(std::launch::async, [&] {
    return run_process({CCB_CCBENCH, "run", "--np", "3", "--sizes", "16M", "-n", "100000", "--algo", "ring",
                        "--timeout", std::to_string(timeout_s)},
                       {{"CCB_TEST_TAG", tag}}, std::chrono::seconds(120));
  });
  pid_t victim = -1;
  for (int i = 0; i < 200 && victim < 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    victim = find_rank(tag, 1);
  }
  REQUIRE(victim > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // well inside the timed loop
  kill(victim, sig);
  auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = job.get();
  double detect = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "fault " << strsignal(sig) << ": job ended " << detect << " s after the signal\n";
  if (sig == SIGSTOP) kill(victim, SIGKILL);
  return r;
}

}  // namespace

TEST_CASE("a rank killed mid-collective: the others fail fast, naming it", "[fault]") {
  ProcessResult r = run_and_signal(SIGKILL, "kill" + std::to_string(getpid()), 20);
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Catch::Contains("rank 1 was killed by signal"));
  CHECK_THAT(r.output, Catch::Contains("connection to rank 1 lost") || Catch::Contains("rank 1 left the job"));
  CHECK(r.seconds < 60);
}

TEST_CASE("a stalled rank: the others time out, naming the peer they wait for", "[fault]") {
  ProcessResult r = run_and_signal(SIGSTOP, "stop" + std::to_string(getpid()), 3);
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Catch::Contains("rank 1") && Catch::Contains("did not complete within 3"));
}
