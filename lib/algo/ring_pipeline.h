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
//  - A send leaves once its data is ready (unit v >= K: once unit v - K is processed).
//    In copy steps it leaves at once then: the peer's receives are all posted. In
//    reduce steps it also stays at most `send_ahead` units ahead of this rank's own
//    processing. By default that is `slots`, the peer's receive window, so the peer's
//    socket never fills with chunks it cannot take yet (zero-window stalls).
//  - Where a reduction writes where an earlier send read (`reduce_overwrites_sent`:
//    ReduceScatter's partial sums live in one slot per chunk position), unit u waits
//    for send u to complete first.
//
// No deadlock: every wait is for a neighbour that is strictly behind. A receive waits
// for a left neighbour that has not yet processed unit u - K, or that is `send_ahead`
// units behind. A send's completion waits for a right neighbour that is `slots` units
// behind. Around the ring the units would have to decrease forever.
//
// Against the three prologues this replaced: results/2026-12-04-ring-pipeline-ab.
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
  // Reduce steps: how far sends may run ahead of processing (at least `slots`).
  // ReduceScatter runs a whole step ahead, as it always has: its partial sums wait in
  // a slot per chunk position. Measured 7-8% faster than `slots` at 16-64 MiB.
  size_t send_ahead = 0;
  bool reduce_overwrites_sent = false;
  std::function<ChunkPlace(size_t v)> send;    // what unit v sends
  std::function<ChunkPlace(size_t u)> land;    // where unit u arrives; reduce steps: only bytes counts
  std::function<void(size_t u, const char* arrived)> reduce;  // reduce steps: combine an arrival
};

// Runs one pass between `left` and `right`; every rank of the ring runs the same pass.
void run_ring_pass(Communicator& comm, Connection& left, Connection& right, const RingPass& pass);

}  // namespace ccb
