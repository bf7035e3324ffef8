// Double-binary-tree AllReduce (NCCL's): each tree carries half of the data; chunks are
// reduced up to the root and broadcast back down, both directions pipelined. Latency
// grows with 2 log2(n) steps instead of the ring's 2(n-1).
#pragma once
#include "algo/collective.h"
#include "algo/communicator.h"

namespace ccb {

class TreeAllreduce {
 public:
  explicit TreeAllreduce(Communicator& comm, ChunkPolicy policy = {}) : comm_(comm), policy_(policy) {}
  void run(const CollectiveArgs& args);

 private:
  Communicator& comm_;
  ChunkPolicy policy_;
};

}  // namespace ccb
