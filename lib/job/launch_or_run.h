// How every measuring command starts: a process that a launcher started (ccbench's own,
// mpirun, srun, torchrun) is a rank and runs at once. Otherwise the command judges
// everything it can once, before any rank exists, then runs as the only rank or
// starts np copies of itself under the local launcher.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace ccb {

struct RankLaunch {
  int np = 1;                      // ranks to start on this host when no launcher did
  std::vector<std::string> argv;   // this command line, for the copies
  bool spin_given = false;         // --spin-us was given: kept even when oversubscribed
  bool bind_cores = false;         // pin rank r to CPU r
};

int launch_or_run(const RankLaunch& launch, const std::function<void()>& preflight, const std::function<int()>& rank);

}  // namespace ccb
