#include "metrics/cpu_usage.h"

#include <sys/resource.h>

namespace ccb {

static double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

CpuWindow::CpuWindow() : wall0_(Clock::now()), cpu0_(process_cpu_seconds()) {}

double CpuWindow::percent() const {
  double wall = wall_seconds();
  return wall > 0 ? (process_cpu_seconds() - cpu0_) / wall * 100.0 : 0;
}

}  // namespace ccb
