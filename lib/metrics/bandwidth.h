// Bandwidth as nccl-tests defines it, so figures compare across tools.
#pragma once
#include <cstdint>

#include "core/collective_kind.h"

namespace ccb {

// Bus bandwidth factor: 2(n-1)/n for AllReduce, (n-1)/n for ReduceScatter and
// AllGather. busbw = algbw x factor is what each rank's link carries, whatever n is.
double busbw_factor(CollectiveKind c, int ranks);
// Bytes of the whole buffer (nccl-tests' "size") over the time: GB/s (1e9 B/s).
double algbw_gbps(uint64_t bytes, double seconds);

}  // namespace ccb
