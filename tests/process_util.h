// Running programs from the tests: capture output and exit status, with a time limit.
#pragma once
#include <chrono>
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace ccb::test {

struct ProcessResult {
  int status = -1;       // exit status, or 128 + signal
  std::string output;    // stdout and stderr together
  double seconds = 0;
};

#ifdef CCB_CCBENCH
// The ccbench under test, with these arguments.
inline std::vector<std::string> ccbench(std::vector<std::string> args) {
  args.insert(args.begin(), CCB_CCBENCH);
  return args;
}
#endif

// Runs argv with extra environment; kills it (and reports status 137) after `limit`.
ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {},
                          std::chrono::seconds limit = std::chrono::seconds(120));

// Starts argv in the background, in its own process group, with extra environment
// (output to /dev/null); returns its pid. The caller reaps it.
pid_t spawn_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {});
// Every process whose environment holds CCB_TEST_TAG=tag (and CCB_RANK=rank, if >= 0).
std::vector<pid_t> find_tagged(const std::string& tag, int rank = -1);
// True once the process has exited (a zombie counts as gone).
bool process_gone(pid_t pid);

// Starts `ccbench run --np 3 --sizes 16M` (plus `extra`) with a huge iteration count,
// sends `sig` to rank 1 `delay` after it started (well inside the timed loop), and returns how the job ended;
// prints the time from the signal to the end of the job.
ProcessResult run_and_signal(int sig, const std::string& tag, double timeout_s, const std::vector<std::string>& extra = {},
                             std::chrono::milliseconds delay = std::chrono::milliseconds(1500));

}  // namespace ccb::test
