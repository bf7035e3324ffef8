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
  // More ranks than CPUs: a spinning waiter steals the CPU its peer needs, so waiters
  // sleep at once unless --spin-us says otherwise.
  if (!l.spin_given && l.np > static_cast<int>(std::thread::hardware_concurrency()))
    plan.argv.insert(plan.argv.end(), {"--spin-us", "0"});
  plan.bind_cores = l.bind_cores;
  return run_local_job(plan);
}

}  // namespace ccb
