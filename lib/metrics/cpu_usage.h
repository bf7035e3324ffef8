// CPU time a rank spends over a timed window: 100% is one core busy throughout. A
// spinning waiter shows near 100% with little work done; a sleeping one much less.
#pragma once
#include "core/units.h"

namespace ccb {

class CpuWindow {
 public:
  CpuWindow();  // starts now
  // User + system time of every thread of this process since the start, over the
  // wall time since the start, in percent.
  double percent() const;
  double wall_seconds() const { return seconds_since(wall0_); }

 private:
  Clock::time_point wall0_;
  double cpu0_;
};

double process_cpu_seconds();  // getrusage(RUSAGE_SELF): user + system

}  // namespace ccb
