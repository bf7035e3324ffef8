#include "job/launch_or_run.h"

#include <thread>

#include "bootstrap/launch_env.h"
#include "bootstrap/local_launcher.h"

namespace ccb {

int launch_or_run(const RankLaunch& l, const std::function<void()>& preflight, const std::function<int()>& rank) {
  if (started_by_launcher(process_env())) return rank();
  preflight();  // bad input is one line and exit 2, before any rank starts
  if (l.np == 1) return rank();
  LocalLaunch plan;
  plan.np = l.np;
  plan.argv = l.argv;
  // More ranks than CPUs: each rank then yields at every spin (WaitPolicy::yield), so a
  // waiter hands the CPU to the peer it waits for; a longer spin keeps it off the
  // sleep-and-wake path, which costs tens of microseconds a message on a busy core.
  // Measured on 2 cores, 4 ranks over shm: 8 B from 53 to 5 us, 1 MiB from 311 to 167 us
  // (results/2026-12-07-oversubscribed-yield).
  if (!l.spin_given && l.np > static_cast<int>(std::thread::hardware_concurrency()))
    plan.argv.insert(plan.argv.end(), {"--spin-us", "1000"});
  plan.bind_cores = l.bind_cores;
  return run_local_job(plan);
}

}  // namespace ccb
