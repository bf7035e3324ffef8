// The collectives ccbench measures, named as nccl-tests names its binaries. What each
// one is (its rules, algorithms and checks) is its descriptor: lib/algo/collectives.h.
#pragma once
#include <string_view>

namespace ccb {

enum class CollectiveKind { kAllreduce, kReduceScatter, kAllGather, kBroadcast, kReduce, kAllToAll, kSendRecv, kAllToAllv, kGather, kScatter,
                            kP2pBw, kP2pBidir, kP2pLat };

std::string_view collective_name(CollectiveKind c);  // "allreduce", "reduce_scatter", "all_gather", ...

}  // namespace ccb
