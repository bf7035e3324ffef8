#include "metrics/bandwidth.h"

#include "algo/collectives.h"

namespace ccb {

double busbw_factor(CollectiveKind c, int n) {
  return n <= 1 ? 0 : describe(c).busbw_factor(n);  // a world of one moves nothing over the network
}

double algbw_gbps(uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0;
}

}  // namespace ccb
