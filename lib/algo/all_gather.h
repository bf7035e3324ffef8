// Ring AllGather (what FSDP runs on parameters): every rank ends with every rank's
// segment, forwarded chunk by chunk around the ring in n-1 steps.
#pragma once
#include "algo/collective.h"
#include "algo/communicator.h"

namespace ccb {

class RingAllGather {
 public:
  explicit RingAllGather(Communicator& comm, ChunkPolicy policy = {}) : comm_(comm), policy_(policy) {}
  void run(const CollectiveArgs& args);

 private:
  Communicator& comm_;
  ChunkPolicy policy_;
};

}  // namespace ccb
