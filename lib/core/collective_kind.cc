#include "core/collective_kind.h"

#include <string>

#include "core/error.h"

namespace ccb {

std::string_view collective_name(CollectiveKind c) {
  switch (c) {
    case CollectiveKind::kAllreduce: return "allreduce";
    case CollectiveKind::kReduceScatter: return "reduce_scatter";
    case CollectiveKind::kAllGather: return "all_gather";
  }
  return "?";
}

CollectiveKind parse_collective(std::string_view s) {
  for (auto c : {CollectiveKind::kAllreduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather})
    if (s == collective_name(c)) return c;
  throw_invalid("unknown collective '" + std::string(s) + "': use allreduce, reduce_scatter or all_gather");
}

}  // namespace ccb
