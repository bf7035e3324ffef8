// Two-level ReduceScatter, AllGather and Broadcast (--algo hier), beside the two-level
// AllReduce (hier_allreduce.h), on the host hierarchy the job opened:
//  - ReduceScatter: the parts are packed by local rank, so that local rank l's block
//    holds, host by host, the parts of every rank with local rank l; a ring
//    reduce-scatter within each host gives l its host's sum of that block; a ring
//    reduce-scatter across the hosts, over l's rail, gives each rank its own part.
//  - AllGather: the reverse. A ring all-gather across the hosts on each rail, a ring
//    all-gather of the blocks within each host, then the parts unpacked to world order.
//  - Broadcast: split over every rail, as NCCL spreads it over its channels. Within the
//    root's host the root scatters the buffer in K parts (padded to equal ones); across
//    the hosts each local rank l broadcasts part l from the root's host over its own
//    rail; within each host a ring all-gather puts the parts together.
// Every rail carries 1/K of the bytes, for all four collectives.
#pragma once
#include "algo/collective.h"
#include "algo/communicator.h"

namespace ccb {

void hier_reduce_scatter(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& args);
void hier_all_gather(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& args);
void hier_broadcast(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& args);

}  // namespace ccb
