#include "metrics/bandwidth.h"

namespace ccb {

double busbw_factor(CollectiveKind c, int n) {
  if (n <= 1) return 0;  // a world of one moves nothing over the network
  double f = static_cast<double>(n - 1) / n;
  return c == CollectiveKind::kAllreduce ? 2 * f : f;
}

double algbw_gbps(uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0;
}

}  // namespace ccb
