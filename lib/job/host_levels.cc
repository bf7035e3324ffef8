#include "job/host_levels.h"

#include <algorithm>
#include <set>

#include "algo/collectives.h"
#include "core/error.h"
#include "core/memory_space.h"
#include "job/address_list.h"

namespace ccb {

static void require_even_hosts(const HostLayout& layout) {
  if (layout.ranks_per_host() > 0) return;
  throw_invalid("--algo hier needs the same number of ranks on every host, and the hosts hold " + layout.ranks_on_text() +
                ": give --ranks-per-host, or use --algo ring, tree or rd");
}

std::vector<int> host_members(const HostLayout& layout, int rank) {
  require_even_hosts(layout);
  std::vector<int> members;
  for (int r = 0; r < layout.ranks(); ++r)
    if (layout.same_host(r, rank)) members.push_back(r);  // by rank, which is by local rank
  return members;
}

std::vector<int> rail_members(const HostLayout& layout, int rank) {
  require_even_hosts(layout);
  std::vector<int> members(layout.hosts.size(), -1);
  for (int r = 0; r < layout.ranks(); ++r)
    if (layout.local_rank_of.at(static_cast<size_t>(r)) == layout.local_rank_of.at(static_cast<size_t>(rank)))
      members.at(static_cast<size_t>(layout.host_of.at(static_cast<size_t>(r)))) = r;
  return members;
}

struct HostLevels::Level {
  std::vector<int> members;
  int index = 0;  // this rank's place among them
  TransportPtr transport;
  std::unique_ptr<AbortList::Entry> abort;  // off the list before the transport goes
  std::unique_ptr<Communicator> comm;
};

// Distinct from the job's token and from --parallel's groups (job/rank_groups.cc).
static uint64_t level_token(uint64_t job_token, int level, int first_member) {
  return job_token ^ (0xc2b2ae3d27d4eb4full * static_cast<uint64_t>(level + 1)) ^ (static_cast<uint64_t>(first_member) << 44);
}

// The peers any inter-host algorithm may use, so that auto's choice per size never
// connects inside a timed call; the host's ring needs its two neighbours.
static std::vector<int> level_peers(int index, int size, bool across) {
  std::set<int> peers;
  for (Algorithm a : {Algorithm::kRing, Algorithm::kTree, Algorithm::kRecursiveDoubling}) {
    if (!across && a != Algorithm::kRing) continue;
    for (int p : algorithm_peers(a, index, size)) peers.insert(p);
  }
  return {peers.begin(), peers.end()};
}

HostLevels::HostLevels(Bootstrap& boot, const HostLayout& layout, const HostLevelsPlan& plan, AbortList* aborts) {
  const int me = boot.rank();
  std::vector<std::unique_ptr<Level>> levels;
  std::vector<std::string> mine;
  for (int l = 0; l < 2; ++l) {
    auto level = std::make_unique<Level>();
    level->members = l == 0 ? host_members(layout, me) : rail_members(layout, me);
    level->index = static_cast<int>(std::find(level->members.begin(), level->members.end(), me) - level->members.begin());
    level->transport = make_transport(l == 0 ? plan.intra : plan.inter, level->index,
                                      level_token(plan.job_token, l, level->members.front()), boot.local_address_hint());
    if (aborts) level->abort = std::make_unique<AbortList::Entry>(*aborts, *level->transport);
    mine.push_back(level->transport->listen_address());
    levels.push_back(std::move(level));
  }
  const std::vector<std::string> gathered = boot.allgather(encode_address_list(mine));
  for (size_t l = 0; l < levels.size(); ++l) {
    Level& level = *levels[l];
    std::vector<std::string> addresses;
    for (int m : level.members)
      addresses.push_back(decode_address_list(gathered.at(static_cast<size_t>(m)), levels.size(), m)[l]);
    const int size = static_cast<int>(level.members.size());
    level.comm = std::make_unique<Communicator>(*level.transport, level.index, size, std::move(addresses), plan.policy,
                                                memory_space((l == 0 ? plan.intra : plan.inter).memory));
    for (int p : level_peers(level.index, size, l == 1)) level.comm->peer(p);
  }
  intra_ = std::move(levels[0]);
  inter_ = std::move(levels[1]);
  hierarchy_ = std::make_unique<HostHierarchy>(*intra_->comm, *inter_->comm, plan.inter_algorithm, layout.host_major());
}

HostLevels::~HostLevels() = default;

}  // namespace ccb
