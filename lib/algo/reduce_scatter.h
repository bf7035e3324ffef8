// Ring ReduceScatter (what FSDP runs on gradients): rank r ends with segment r of the
// reduction, after n-1 pipelined steps.
#pragma once
#include "algo/collective.h"
#include "algo/communicator.h"

namespace ccb {

class RingReduceScatter {
 public:
  explicit RingReduceScatter(Communicator& comm, ChunkPolicy policy = {}) : comm_(comm), policy_(policy) {}
  void run(const CollectiveArgs& args);

 private:
  Communicator& comm_;
  ChunkPolicy policy_;
};

}  // namespace ccb
