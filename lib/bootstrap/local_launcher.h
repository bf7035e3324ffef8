// `ccbench run --np N`: fork N ranks of this very program on this host, hand each its
// CCB_* environment, and end the job cleanly when one of them fails: the others hear of
// it through the store and stop within moments, and after a short grace whatever is
// left is killed, as mpirun does. Ranks die with the launcher, even by kill -9.
#pragma once
#include <chrono>
#include <string>
#include <vector>

namespace ccb {

struct LocalLaunch {
  int np = 4;
  std::string program = "/proc/self/exe";
  std::vector<std::string> argv;         // each rank's arguments (argv[0] included)
  std::chrono::milliseconds grace{3000};  // after a rank fails, how long the others get to report
  std::string master_addr = "127.0.0.1";
  bool bind_cores = false;  // pin rank r to CPU r mod (CPUs allowed), as mpirun does
};

// Returns the job's exit status: 0 when every rank succeeded, else the first failing
// rank's status (128+signal for a signal), after reporting each failure on stderr.
int run_local_job(const LocalLaunch& plan);

int pick_free_port(const std::string& addr);
std::string random_token();

}  // namespace ccb
