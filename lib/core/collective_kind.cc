#include "core/collective_kind.h"

namespace ccb {

std::string_view collective_name(CollectiveKind c) {
  switch (c) {
    case CollectiveKind::kAllreduce: return "allreduce";
    case CollectiveKind::kReduceScatter: return "reduce_scatter";
    case CollectiveKind::kAllGather: return "all_gather";
    case CollectiveKind::kBroadcast: return "broadcast";
    case CollectiveKind::kReduce: return "reduce";
    case CollectiveKind::kAllToAll: return "all_to_all";
    case CollectiveKind::kSendRecv: return "send_recv";
    case CollectiveKind::kAllToAllv: return "all_to_allv";
    case CollectiveKind::kGather: return "gather";
    case CollectiveKind::kScatter: return "scatter";
    case CollectiveKind::kP2pBw: return "p2p_bw";
    case CollectiveKind::kP2pBidir: return "p2p_bidir";
    case CollectiveKind::kP2pLat: return "p2p_lat";
  }
  return "?";
}

}  // namespace ccb
