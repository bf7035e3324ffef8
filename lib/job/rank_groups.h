// The groups of --parallel that a rank belongs to, each with a transport of its own
// (its own listening socket or verbs context, its own connections), a communicator
// over the group's ranks and a bootstrap within the group. So groups run side by side
// in one process without sharing a connection, a tag space or the job's store.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "job/rank_job.h"
#include "profiles/parallel_step.h"
#include "runner/communicator_bootstrap.h"
#include "runner/parallel_runner.h"

namespace ccb {

class RankGroup {
 public:
  RankGroup(GroupKind kind, std::vector<int> members, TransportPtr transport, AbortList& aborts);
  ~RankGroup();
  // Every member calls this once with the group's transport addresses, in member order.
  void connect(std::vector<std::string> addresses, const WaitPolicy& policy, const MemorySpace& memory, int world_rank);
  GroupLane lane(std::vector<TraceCall> calls);
  GroupKind kind() const { return kind_; }
  // What its calls run on, for the step table: "shm, within each host", "tcp, across hosts".
  const std::string& over() const { return over_; }
  void set_over(std::string over) { over_ = std::move(over); }
  const std::vector<int>& members() const { return members_; }
  Transport& transport() { return *transport_; }

 private:
  GroupKind kind_;
  std::vector<int> members_;
  std::string over_;
  TransportPtr transport_;
  AbortList::Entry abort_entry_;  // declared after the transport: off the list before it goes
  std::unique_ptr<Communicator> comm_;
  std::unique_ptr<CommunicatorBootstrap> boot_;
};

// Megatron's rank (the position in `layout`) of world rank `rank`: positions fill the
// hosts in order (HostLayout::host_major), so a TP group of T consecutive positions sits
// on one host when T divides the ranks per host, however the launcher numbered them.
int parallel_position(const HostLayout& hosts, int rank);

// Whether every group of kind `k` sits within one host.
bool groups_within_hosts(const ParallelLayout& layout, GroupKind k, const HostLayout& hosts);

// This rank's groups of every kind larger than one, in kGroupKinds order, connected
// lazily like the world's communicator. Every rank calls this (one all-gather). When
// the job spans hosts, a kind whose groups all sit within hosts runs on `within_host`
// (shm; null: the job's transport, as every other kind, each rank on its own rail).
std::vector<std::unique_ptr<RankGroup>> open_rank_groups(RankContext& rank, const ParallelLayout& layout,
                                                         const TransportChoice* within_host);

}  // namespace ccb
