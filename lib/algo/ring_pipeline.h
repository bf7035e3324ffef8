// The ring pass that ReduceScatter, AllGather and the ring AllReduce are made of, with
// one tag scheme and one flow-control rule.
//
// A pass is `steps` steps of K chunks each; unit u = step x K + chunk. At each step a
// rank receives one segment's chunks from its left neighbour and sends one segment's
// chunks to its right. What it sends at unit v >= K is what it made of unit v - K:
// a partial sum, or a chunk that arrived and is passed on.
//  - Reduce steps (the first `reduce_steps`) receive into `slots` scratch slots, and the
//    collective reduces each arrival (`reduce`). So at most `slots` of their receives
//    are posted ahead of the unit being processed.
//  - Copy steps (the rest) receive straight into the final place. They are all posted
//    at the start, so they never hold a sender back.
//  - Tags: step s's messages carry ring_step_tag(s). Per-tag order then holds however
//    the posts interleave.
//  - Sends leave in unit order, which is the order in which the peer posts its
//    receives. On a FIFO socket, a receiver parks the first chunk it has no receive
//    for.
//  - A send leaves once its data is ready (unit v >= K: once unit v - K is processed)
//    and the peer's receive for it is posted, as far as this rank can tell: at once for
//    copy steps, and for reduce steps at most `slots` units ahead of this rank's own
//    processing, as the peer's receives are. So the peer's socket never fills with
//    chunks it cannot take yet (zero-window stalls).
//  - Where a reduction writes where an earlier send read (`reduce_overwrites_sent`:
//    ReduceScatter's partial sums live in one slot per chunk position), unit u waits
//    for send u to complete first.
//
// No deadlock: every wait is for a neighbour that is strictly behind. A receive waits
// for a left neighbour that has not yet processed unit u - K, or that is `slots` units
// behind. A send's completion waits for a right neighbour that is `slots` units
// behind. Around the ring the units would have to decrease forever.
//
// Against the three prologues this replaced (2026-12-04, 4 ranks on loopback, 1-64 MiB,
// median of 3 processes): the ring AllReduce, ReduceScatter and AllGather were all
// within 0.90-1.06x of their old times, inside this machine's noise.
#pragma once
#include <cstddef>
#include <functional>

#include "algo/communicator.h"
#include "transport/transport.h"

namespace ccb {

// Where a unit's chunk is, in registered memory; 0 bytes: the chunk is empty, no message.
struct ChunkPlace {
  const MemoryRegion* region = nullptr;
  size_t offset = 0;
  size_t bytes = 0;
};

struct RingPass {
  size_t steps = 0;
  size_t reduce_steps = 0;  // the first steps; at most `steps`
  size_t chunks = 1;        // K, chunks per step
  size_t slots = 4;         // reduce steps' receive slots, and how far sends run ahead
  size_t slot_bytes = 0;    // the largest chunk a reduce step receives
  // Holds the receive slots at its start (slots x slot_bytes); null: the communicator's
  // scratch. A collective that keeps more of its own there passes it.
  const MemoryRegion* scratch = nullptr;
  bool reduce_overwrites_sent = false;
  std::function<ChunkPlace(size_t v)> send;    // what unit v sends
  std::function<ChunkPlace(size_t u)> land;    // where unit u arrives; reduce steps: only bytes counts
  std::function<void(size_t u, const char* arrived)> reduce;  // reduce steps: combine an arrival
};

// Runs one pass between `left` and `right`; every rank of the ring runs the same pass.
void run_ring_pass(Communicator& comm, Connection& left, Connection& right, const RingPass& pass);

}  // namespace ccb
