// Ring AllReduce: a reduce-scatter then an all-gather around the ring, 2(n-1) steps,
// each segment cut into chunks so that reducing chunk k overlaps moving chunk k+1.
#pragma once
#include "algo/collective.h"
#include "algo/communicator.h"
#include "algo/ring_schedule.h"

namespace ccb {

class RingAllreduce {
 public:
  explicit RingAllreduce(Communicator& comm, ChunkPolicy policy = {}) : comm_(comm), policy_(policy) {}
  void run(const CollectiveArgs& args);

  // The two halves apart, for a collective that works on the reduced segment in
  // between (algo/hier_allreduce.cc). After the first, rank r holds segment
  // owned_segment(r) of the reduction in recv, kAvg not yet divided; the second sends
  // each rank's segment from recv to every rank.
  void reduce_scatter_half(const CollectiveArgs& args);
  void all_gather_half(const CollectiveArgs& args);
  ElementRange owned_segment(const CollectiveArgs& args) const;

 private:
  // Steps [first, first + steps) of the 2(n-1); `divides`: the last reduce step
  // divides kAvg's sum by n.
  void run_steps(const CollectiveArgs& args, size_t first, size_t steps, bool divides);

  Communicator& comm_;
  ChunkPolicy policy_;
};

}  // namespace ccb
