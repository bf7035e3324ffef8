// The collectives ccbench measures, named as nccl-tests names its binaries.
#pragma once
#include <string_view>

namespace ccb {

enum class CollectiveKind { kAllreduce, kReduceScatter, kAllGather };

std::string_view collective_name(CollectiveKind c);  // "allreduce", "reduce_scatter", "all_gather"
CollectiveKind parse_collective(std::string_view s);  // throws kInvalidArgument

}  // namespace ccb
