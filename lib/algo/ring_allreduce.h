// Ring AllReduce: a reduce-scatter then an all-gather around the ring, 2(n-1) steps,
// each segment cut into chunks so that reducing chunk k overlaps moving chunk k+1.
#pragma once
#include "algo/collective.h"
#include "algo/communicator.h"

namespace ccb {

class RingAllreduce {
 public:
  explicit RingAllreduce(Communicator& comm, ChunkPolicy policy = {}) : comm_(comm), policy_(policy) {}
  void run(const CollectiveArgs& args);

 private:
  Communicator& comm_;
  ChunkPolicy policy_;
};

}  // namespace ccb
