#include "algo/ring_allreduce.h"

#include <algorithm>
#include <vector>

#include "algo/ring_schedule.h"
#include "core/reduce.h"

namespace ccb {

void RingAllreduce::run(const CollectiveArgs& a) {
  const int n = comm_.size(), r = comm_.rank();
  const size_t esize = dtype_size(a.dtype);
  if (finish_trivial_allreduce(a, n)) return;
  const RingSchedule sched(a.count, n, policy_.chunk_bytes / esize);
  const size_t K = sched.chunks_per_segment();
  const size_t steps = 2 * static_cast<size_t>(n - 1), units = steps * K;
  const size_t reduce_steps = static_cast<size_t>(n - 1);
  const size_t slots = static_cast<size_t>(std::max(policy_.slots, 1));
  const size_t slot_bytes = (sched.segment(0).count + K - 1) / K * esize;
  const MemoryRegion& scratch = comm_.scratch(slot_bytes * slots);
  Connection& left = comm_.peer(sched.wrap(r - 1));
  Connection& right = comm_.peer(sched.wrap(r + 1));

  // Step s sends segment r-s and receives segment r-s-1, for both phases alike.
  auto recv_chunk = [&](size_t u) { return sched.chunk(sched.wrap(r - static_cast<long long>(u / K) - 1), u % K); };
  std::vector<RequestPtr> recvs(units), sends;
  auto post_recv = [&](size_t u) {
    ElementRange e = recv_chunk(u);
    if (e.empty()) return;
    if (u / K < reduce_steps)
      recvs[u] = left.irecv(scratch, (u % slots) * slot_bytes, e.count * esize, ring_step_tag(u / K));
    else
      recvs[u] = left.irecv(*a.recv.region, a.recv.offset + e.begin * esize, e.count * esize, ring_step_tag(u / K));
  };
  auto post_send = [&](size_t s, size_t c) {
    ElementRange e = sched.chunk(sched.wrap(r - static_cast<long long>(s)), c);
    if (e.empty()) return;
    const BufferRef& src = s == 0 ? a.send : a.recv;
    sends.push_back(right.isend(*src.region, src.offset + e.begin * esize, e.count * esize, ring_step_tag(s)));
  };

  // Reduce-step chunks land in `slots` scratch slots; all-gather chunks land in their
  // final place, so those receives are all posted now and never hold a sender back.
  // Each step has its own tag, so per-tag order holds however the posts interleave.
  const size_t first_copy = reduce_steps * K;
  for (size_t u = 0; u < std::min(slots, first_copy); ++u) post_recv(u);
  for (size_t u = first_copy; u < units; ++u) post_recv(u);
  // Sends leave in unit order, the order in which the peer posts its receives (on one
  // FIFO socket a receiver parks the first chunk it has no receive for), and at most
  // `slots` units ahead of this rank's own progress, as the peer's receives are: so the
  // peer's socket never fills with chunks it cannot take yet (zero-window stalls).
  // Deadlock-free: the slowest rank's left neighbour has always sent its next unit.
  size_t next_send = 0;  // send unit v = step * K + chunk
  auto pump_sends = [&](size_t processed) {
    while (next_send < units && next_send < processed + slots && (next_send < K || next_send - K < processed)) {
      post_send(next_send / K, next_send % K);
      ++next_send;
    }
  };
  pump_sends(0);
  for (size_t u = 0; u < units; ++u) {
    const size_t s = u / K;
    ElementRange e = recv_chunk(u);
    if (!e.empty()) {
      comm_.waiter().wait(*recvs[u]);
      recvs[u].reset();
      if (s < reduce_steps) {
        char* dst = a.recv.data() + e.begin * esize;
        reduce(dst, a.send.data() + e.begin * esize, scratch.base() + (u % slots) * slot_bytes, e.count, a.dtype, a.op);
        if (s + 1 == reduce_steps && a.op == ReduceOp::kAvg) divide(dst, e.count, a.dtype, n);
      }
    }
    pump_sends(u + 1);
    if (u + slots < first_copy) post_recv(u + slots);
  }
  comm_.waiter().wait_all(sends);
}

}  // namespace ccb
