#include "algo/ring_pipeline.h"

#include <algorithm>
#include <vector>

#include "algo/collective.h"

namespace ccb {

void run_ring_pass(Communicator& comm, Connection& left, Connection& right, const RingPass& p) {
  const size_t K = p.chunks, units = p.steps * K, reduce_units = p.reduce_steps * K;
  const size_t slots = std::max<size_t>(p.slots, 1);
  const MemoryRegion* scratch = p.scratch;
  if (!scratch && reduce_units > 0) scratch = &comm.scratch(slots * p.slot_bytes);
  auto in_slot = [&](size_t u) { return (u % slots) * p.slot_bytes; };
  std::vector<RequestPtr> recvs(units), sends(units);
  HopTimeline* hops = comm.hop_timeline();

  auto post_recv = [&](size_t u) {
    const ChunkPlace at = p.land(u);
    if (at.bytes == 0) return;
    const uint32_t tag = ring_step_tag(u / K);
    recvs[u] = u < reduce_units ? left.irecv(*scratch, in_slot(u), at.bytes, tag)
                                : left.irecv(*at.region, at.offset, at.bytes, tag);
  };
  size_t next_send = 0;
  // Copy steps' receives are all posted at the start; reduce steps' run `slots` ahead
  // of the peer's processing, and sends `send_ahead` ahead of this rank's.
  const size_t ahead = std::max(p.send_ahead, slots);
  auto peer_ready = [&](size_t v, size_t processed) { return v >= reduce_units || v < processed + ahead; };
  auto pump_sends = [&](size_t processed) {
    for (; next_send < units; ++next_send) {
      const size_t v = next_send;
      const bool data_ready = v < K || v - K < processed;
      if (!data_ready || !peer_ready(v, processed)) break;
      const ChunkPlace from = p.send(v);
      if (from.bytes == 0) continue;
      sends[v] = right.isend(*from.region, from.offset, from.bytes, ring_step_tag(v / K));
      if (hops) hops->sent();
    }
  };

  for (size_t u = 0; u < std::min(slots, reduce_units); ++u) post_recv(u);
  for (size_t u = reduce_units; u < units; ++u) post_recv(u);
  pump_sends(0);
  for (size_t u = 0; u < units; ++u) {
    if (recvs[u]) {
      comm.waiter().wait(*recvs[u]);
      if (hops) hops->received();
      recvs[u].reset();
      if (u < reduce_units) {
        if (p.reduce_overwrites_sent && u >= K && sends[u]) comm.waiter().wait(*sends[u]);
        p.reduce(u, scratch->base() + in_slot(u));
      }
    }
    pump_sends(u + 1);
    if (u + slots < reduce_units) post_recv(u + slots);
  }
  comm.waiter().wait_all(sends);
}

}  // namespace ccb
