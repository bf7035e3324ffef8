// Rails: one NIC per local rank, as DGX-style nodes are wired. `--iface eth1,eth2` and
// `--ib-dev mlx5_0,mlx5_1` name a host's rails; local rank L drives rail L mod R, so
// fewer rails than ranks are shared in turn. The list is the same on every host, as
// the flags are; each rank picks its own once the layout has told it its local rank.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "runner/transport_factory.h"

namespace ccb {

// At most this many rails a host: a DGX has 8 compute NICs, the largest nodes 16.
inline constexpr size_t kMaxRails = 32;

// "eth1,eth2" -> {eth1, eth2}; "" -> {}. Throws kInvalidArgument, naming `flag`, on an
// empty name, a name listed twice, a name longer than `max_name` or more than kMaxRails.
std::vector<std::string> rail_names(const std::string& list, std::string_view flag, size_t max_name);

// The rails the transport's flags name (--iface for tcp and ipoib, --ib-dev for verbs);
// empty when they name none or the transport has no rails (shm).
std::vector<std::string> rails_of(const TransportChoice& t);

// `t` with the rail of `local_rank` in place of the list: what that rank opens.
TransportChoice on_rail(TransportChoice t, int local_rank);

// The same choice once per rail, for checks that must see every rail (preflight).
std::vector<TransportChoice> each_rail(const TransportChoice& t);

}  // namespace ccb
