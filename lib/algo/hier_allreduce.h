// Two-level AllReduce (--algo hier), as NCCL and Open MPI's HAN build it for nodes of
// several ranks: a ring reduce-scatter within each host, then one AllReduce per local
// rank across the hosts, of that rank's segment only, over its own rail; then a ring
// all-gather within each host. A NIC carries 1/K of the buffer when K ranks share a
// host, and every rail works at once.
#pragma once
#include "algo/collective.h"
#include "algo/communicator.h"

namespace ccb {

// Runs on world.hierarchy(); throws kInvalidArgument when the job opened none.
void hier_allreduce(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& args);

}  // namespace ccb
