#include "job/rank_groups.h"

#include <algorithm>

#include "core/error.h"
#include "core/memory_space.h"
#include "job/address_list.h"

namespace ccb {

RankGroup::RankGroup(GroupKind kind, std::vector<int> members, TransportPtr transport, AbortList& aborts)
    : kind_(kind), members_(std::move(members)), transport_(std::move(transport)), abort_entry_(aborts, *transport_) {}

RankGroup::~RankGroup() = default;

void RankGroup::connect(std::vector<std::string> addresses, const WaitPolicy& policy, const MemorySpace& memory,
                        int world_rank) {
  const auto me = std::find(members_.begin(), members_.end(), world_rank);
  comm_ = std::make_unique<Communicator>(*transport_, static_cast<int>(me - members_.begin()),
                                         static_cast<int>(members_.size()), std::move(addresses), policy, memory);
  boot_ = std::make_unique<CommunicatorBootstrap>(*comm_);
}

GroupLane RankGroup::lane(std::vector<TraceCall> calls) {
  return GroupLane{kind_, members_, *comm_, *boot_, std::move(calls)};
}

// A group's transport answers only its own group: the token that its hellos carry is
// the job's, told apart by kind and by the group's first rank.
static uint64_t group_token(uint64_t job_token, GroupKind kind, int first_member) {
  return job_token ^ (0x9e3779b97f4a7c15ull * (static_cast<uint64_t>(kind) + 1)) ^
         (static_cast<uint64_t>(first_member) << 40);
}

int parallel_position(const HostLayout& hosts, int rank) {
  const std::vector<int> order = hosts.host_major();
  return static_cast<int>(std::find(order.begin(), order.end(), rank) - order.begin());
}

bool groups_within_hosts(const ParallelLayout& layout, GroupKind k, const HostLayout& hosts) {
  const std::vector<int> order = hosts.host_major();
  for (int p = 0; p < static_cast<int>(order.size()); ++p)
    for (int m : group_members(layout, k, p))
      if (!hosts.same_host(order.at(static_cast<size_t>(m)), order.at(static_cast<size_t>(p)))) return false;
  return true;
}

// `rank`'s group of kind `k` as world ranks, in the order of their positions.
static std::vector<int> world_members(const ParallelLayout& layout, GroupKind k, const HostLayout& hosts, int rank) {
  const std::vector<int> order = hosts.host_major();
  std::vector<int> members;
  for (int p : group_members(layout, k, parallel_position(hosts, rank))) members.push_back(order.at(static_cast<size_t>(p)));
  return members;
}

std::vector<std::unique_ptr<RankGroup>> open_rank_groups(RankContext& rank, const ParallelLayout& layout,
                                                         const TransportChoice* within_host) {
  const int me = rank.boot.rank();
  const bool spans_hosts = rank.layout.hosts.size() > 1;
  std::vector<std::unique_ptr<RankGroup>> groups;
  std::vector<std::string> mine(kGroupKinds.size());
  for (size_t k = 0; k < kGroupKinds.size(); ++k) {
    const GroupKind kind = kGroupKinds[k];
    if (layout.size(kind) == 1) continue;
    std::vector<int> members = world_members(layout, kind, rank.layout, me);
    const int local = static_cast<int>(std::find(members.begin(), members.end(), me) - members.begin());
    const bool on_host = spans_hosts && within_host && groups_within_hosts(layout, kind, rank.layout);
    const TransportChoice& choice = on_host ? *within_host : rank.settings.transport;
    TransportPtr t = make_transport(choice, local, group_token(rank.info.token, kind, members.front()), rank.boot.local_address_hint());
    mine[k] = t->listen_address();
    groups.push_back(std::make_unique<RankGroup>(kind, std::move(members), std::move(t), rank.aborts));
    const bool rails = !rank.layout.rails_text().empty();
    groups.back()->set_over(choice.name + (on_host       ? ", within each host"
                                           : spans_hosts ? (rails ? ", across hosts, each rank on its rail" : ", across hosts")
                                                         : ""));
  }
  std::vector<std::vector<std::string>> everyone;
  const std::vector<std::string> gathered = rank.boot.allgather(encode_address_list(mine));
  for (size_t r = 0; r < gathered.size(); ++r) everyone.push_back(decode_address_list(gathered[r], kGroupKinds.size(), static_cast<int>(r)));
  const WaitPolicy policy = rank.settings.wait_policy();
  for (auto& g : groups) {
    const size_t k = static_cast<size_t>(std::find(kGroupKinds.begin(), kGroupKinds.end(), g->kind()) - kGroupKinds.begin());
    std::vector<std::string> addresses;
    for (int member : g->members()) addresses.push_back(everyone[static_cast<size_t>(member)][k]);
    g->connect(std::move(addresses), policy, memory_space(rank.settings.transport.memory), me);
  }
  return groups;
}

}  // namespace ccb
