#include "algo/reduce_scatter.h"

#include <cstring>

#include "algo/collectives.h"
#include "algo/ring_schedule.h"
#include "core/reduce.h"

namespace ccb {

void RingReduceScatter::run(const CollectiveArgs& a) {
  const int n = comm_.size(), r = comm_.rank();
  const size_t esize = dtype_size(a.dtype);
  if (a.count == 0) return;
  const size_t own = static_cast<size_t>(r) * a.count * esize;
  if (n == 1) {
    if (a.recv.data() != a.send.data() + own) std::memcpy(a.recv.data(), a.send.data() + own, a.count * esize);
    return;
  }
  const RingSchedule sched = RingSchedule::uniform(a.count, n, policy_.chunk_bytes / esize);
  const size_t K = sched.chunks_per_segment(), steps = static_cast<size_t>(n - 1), units = steps * K;
  const size_t slots = static_cast<size_t>(std::max(policy_.slots, 1));
  const size_t slot_bytes = (a.count + K - 1) / K * esize;
  // Incoming chunks land in `slots` in-slots. A partial sum waits for its send in the
  // out-slot of its chunk position, one per chunk of a segment: reusing it waits only
  // for the right neighbour's receive of the same position one step earlier, so every
  // wait points to a lower unit and the ring cannot deadlock. (With fewer out-slots, a
  // rank waits for its neighbour to reach a later unit than its own: a cycle once a
  // segment has more than 2 x slots chunks, when TCP holds unreceived messages.)
  const MemoryRegion& scratch = comm_.scratch((slots + K) * slot_bytes);
  auto in_slot = [&](size_t u) { return (u % slots) * slot_bytes; };
  auto out_slot = [&](size_t u) { return (slots + u % K) * slot_bytes; };
  Connection& left = comm_.peer(sched.wrap(r - 1));
  Connection& right = comm_.peer(sched.wrap(r + 1));

  // Step s sends segment r-s-1 and receives r-s-2, so the last step brings segment r.
  auto recv_chunk = [&](size_t u) { return sched.chunk(sched.wrap(r - static_cast<long long>(u / K) - 2), u % K); };
  std::vector<RequestPtr> recvs(units), sends(units);
  auto post_recv = [&](size_t u) {
    ElementRange e = recv_chunk(u);
    if (!e.empty()) recvs[u] = left.irecv(scratch, in_slot(u), e.count * esize, kTagReduceScatter);
  };
  for (size_t u = 0; u < std::min(slots, units); ++u) post_recv(u);
  std::vector<RequestPtr> first;
  for (size_t c = 0; c < K; ++c) {
    ElementRange e = sched.chunk(sched.wrap(r - 1), c);
    if (!e.empty()) first.push_back(right.isend(*a.send.region, a.send.offset + e.begin * esize, e.count * esize, kTagReduceScatter));
  }
  for (size_t u = 0; u < units; ++u) {
    const size_t s = u / K;
    ElementRange e = recv_chunk(u);
    if (!e.empty()) {
      comm_.waiter().wait(*recvs[u]);
      recvs[u].reset();
      const char* mine = a.send.data() + e.begin * esize;
      const char* incoming = scratch.base() + in_slot(u);
      if (s + 1 == steps) {
        char* dst = a.recv.data() + (e.begin - sched.segment(r).begin) * esize;
        reduce(dst, mine, incoming, e.count, a.dtype, a.op);
        if (a.op == ReduceOp::kAvg) divide(dst, e.count, a.dtype, n);
      } else {
        if (u >= K && sends[u - K]) comm_.waiter().wait(*sends[u - K]);
        reduce(scratch.base() + out_slot(u), mine, incoming, e.count, a.dtype, a.op);
        sends[u] = right.isend(scratch, out_slot(u), e.count * esize, kTagReduceScatter);
      }
    }
    if (u + slots < units) post_recv(u + slots);
  }
  comm_.waiter().wait_all(first);
  comm_.waiter().wait_all(sends);
}

namespace {

void run_reduce_scatter(Communicator& comm, const ChunkPolicy& chunks, Algorithm, const CollectiveArgs& args) {
  RingReduceScatter(comm, chunks).run(args);
}

// In place, a rank's part of the result is its own part of the input.
void place_reduce_scatter(CollectiveArgs& a, int rank) {
  a.recv = {a.send.region, a.send.offset + static_cast<size_t>(rank) * a.count * dtype_size(a.dtype)};
}

void fill_reduce_scatter(const CollectiveArgs& a, const PatternSpec& p, int rank, bool zeros) {
  if (zeros) std::memset(a.send.data(), 0, a.count * static_cast<size_t>(p.world) * dtype_size(a.dtype));
  else fill_pattern(a.send.data(), a.count * static_cast<size_t>(p.world), 0, p, rank);
}

uint64_t check_reduce_scatter(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  return count_wrong(a.recv.data(), a.count, static_cast<size_t>(rank) * a.count, p);
}

}  // namespace

const CollectiveDescriptor& reduce_scatter_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kReduceScatter,
      .name = "reduce_scatter",
      .trace_names = {"reducescatter", "reduce-scatter"},
      .algorithms = {Algorithm::kRing},
      .reduces = true,
      .per_rank_parts = true,
      .busbw_factor = busbw_each_part,
      .run = run_reduce_scatter,
      .place_in_place = place_reduce_scatter,
      .fill = fill_reduce_scatter,
      .check = check_reduce_scatter,
  };
  return d;
}

}  // namespace ccb
