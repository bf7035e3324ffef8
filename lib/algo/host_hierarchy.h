// The two levels a hierarchical collective (--algo hier) runs on: the ranks of this
// rank's host, and the ranks of its local rank on every host (its rail, one per local
// rank, as NCCL and Open MPI's HAN split a node). Each level is a communicator over a
// transport of its own, which the job opens (job/host_groups.h): shm within a host,
// the job's transport across hosts. A collective's buffers are registered with the
// world's transport; `on_intra` and `on_inter` give the same bytes as regions of each
// level's transport, registered once and reused.
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "algo/collective.h"
#include "algo/collectives.h"
#include "algo/communicator.h"
#include "core/memory_space.h"

namespace ccb {

// Where one call's time went, summed over the calls since the last reset.
// The legs are named by place, not by what runs there, which is per collective
// (AllReduce: reduce-scatter, AllReduce, all-gather; Broadcast: -, broadcast, broadcast).
struct LegTimes {
  double intra_before_us = 0;  // within the host, before the hosts exchange
  double inter_us = 0;         // across hosts: each local rank's collective on its rail
  double intra_after_us = 0;   // within the host, after
  uint64_t calls = 0;
  Algorithm inter_algorithm = Algorithm::kAuto;  // what the last call ran across hosts
  Algorithm intra_algorithm = Algorithm::kRing;  // what it ran within a host (broadcast's by size)
  std::string intra_transport;                   // what the legs within a host ran on: "shm", "tcp"
  LegTimes per_call() const;  // each leg's mean over the calls (zeros without calls)
};

// Memory of the hierarchy's own, the same bytes as a region of each level.
struct StagedBuffer {
  char* data;
  BufferRef intra, inter;
};

class HostHierarchy {
 public:
  // `inter_algorithm` is what the cross-host leg runs; kAuto: chosen per call by size.
  // `world_ranks`: the world rank of local rank l on host h at h x intra size + l.
  HostHierarchy(Communicator& intra, Communicator& inter, Algorithm inter_algorithm, std::vector<int> world_ranks);
  Communicator& intra() { return intra_; }
  Communicator& inter() { return inter_; }
  Algorithm inter_algorithm() const { return inter_algorithm_; }
  int world_rank(int host, int local) const;
  BufferRef on_intra(const BufferRef& b) { return on(intra_, b); }
  BufferRef on_inter(const BufferRef& b) { return on(inter_, b); }
  // At least `bytes` of staging memory `which` (0 or 1), reused across calls; what it
  // held is gone once it grows.
  StagedBuffer staging(int which, size_t bytes);
  LegTimes& legs() { return legs_; }

 private:
  struct Registration {
    uint64_t world_serial;
    const Communicator* level;
    MemoryRegionPtr region;
  };
  BufferRef on(Communicator& level, const BufferRef& b);

  struct Staging {
    SpaceBuffer memory;  // from the levels' memory space, registered on both
    MemoryRegionPtr intra, inter;
  };

  Communicator& intra_;
  Communicator& inter_;
  Algorithm inter_algorithm_;
  std::vector<int> world_ranks_;
  std::array<Staging, 2> staging_;
  // A run's send, receive and scratch buffers on both levels; the oldest is dropped
  // first, so a sweep that grows its buffers keeps only the live ones.
  static constexpr size_t kMaxRegistrations = 8;
  std::deque<Registration> registrations_;
  LegTimes legs_;
};

// The hierarchy a two-level collective runs on; throws kInvalidArgument, naming the fix,
// when the job opened none.
HostHierarchy& hierarchy_of(Communicator& world);

// Adds the time since construction to one leg when it goes out of scope.
class LegTimer {
 public:
  explicit LegTimer(double& leg) : leg_(leg), start_(std::chrono::steady_clock::now()) {}
  ~LegTimer() { leg_ += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count(); }
  LegTimer(const LegTimer&) = delete;
  LegTimer& operator=(const LegTimer&) = delete;

 private:
  double& leg_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace ccb
