// What --algo hier runs on (algo/host_hierarchy.h), opened for one rank: a transport and
// a communicator for the ranks of its host (shm, or the job's transport with --intra
// same), and another for the ranks of its local rank on every host (the job's transport,
// over the rank's own rail). Each level has its own listener and connections, so the
// legs never share a tag space with the world's communicator or with each other.
#pragma once
#include <memory>
#include <vector>

#include "algo/host_hierarchy.h"
#include "bootstrap/bootstrap.h"
#include "bootstrap/host_layout.h"
#include "job/rank_job.h"
#include "runner/transport_factory.h"

namespace ccb {

struct HostLevelsPlan {
  TransportChoice intra;            // within a host
  TransportChoice inter;            // across hosts
  Algorithm inter_algorithm;        // kAuto: by size, per call
  uint64_t job_token = 0;           // the job's; each level's transport answers its level only
  WaitPolicy policy;
};

// The members of each level of `rank`, in level order: its host's ranks by local rank,
// and its local rank's ranks by host. Throws kInvalidArgument, the same on every rank,
// when the hosts hold different numbers of ranks.
std::vector<int> host_members(const HostLayout& layout, int rank);
std::vector<int> rail_members(const HostLayout& layout, int rank);

class HostLevels {
 public:
  // Every rank of the job calls this at once (one all-gather); the connections are made
  // before it returns, in ascending order within each level. `aborts` (may be null)
  // learns both transports, so a failure elsewhere ends a leg at once.
  HostLevels(Bootstrap& boot, const HostLayout& layout, const HostLevelsPlan& plan, AbortList* aborts);
  ~HostLevels();
  HostHierarchy& hierarchy() { return *hierarchy_; }

 private:
  struct Level;
  std::unique_ptr<Level> intra_, inter_;
  std::unique_ptr<HostHierarchy> hierarchy_;
};

// Sets comm's hierarchy while it lives, and clears it after, even when a call throws.
class HierarchyAttached {
 public:
  HierarchyAttached(Communicator& comm, HostLevels* levels) : comm_(comm) {
    comm_.set_hierarchy(levels ? &levels->hierarchy() : nullptr);
  }
  ~HierarchyAttached() { comm_.set_hierarchy(nullptr); }
  HierarchyAttached(const HierarchyAttached&) = delete;
  HierarchyAttached& operator=(const HierarchyAttached&) = delete;

 private:
  Communicator& comm_;
};

}  // namespace ccb
