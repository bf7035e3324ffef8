#include "algo/reduce_scatter.h"

#include <cstring>

#include "algo/collectives.h"
#include "algo/hier_collectives.h"
#include "algo/ring_pipeline.h"
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
  const size_t K = sched.chunks_per_segment(), steps = static_cast<size_t>(n - 1);
  const size_t slots = static_cast<size_t>(std::max(policy_.slots, 1));
  const size_t slot_bytes = (a.count + K - 1) / K * esize;
  // The pass's `slots` receive slots, then a partial sum's out-slot per chunk position,
  // where it waits for its send. Reusing one waits only for the send of the same
  // position one step earlier (ring_pipeline.h).
  const MemoryRegion& scratch = comm_.scratch((slots + K) * slot_bytes);
  auto out_slot = [&](size_t u) { return (slots + u % K) * slot_bytes; };
  // Step s sends segment r-s-1 and receives r-s-2, so the last step brings segment r.
  auto chunk_of = [&](size_t u, long long shift) {
    return sched.chunk(sched.wrap(r - static_cast<long long>(u / K) - shift), u % K);
  };
  RingPass pass;
  pass.steps = pass.reduce_steps = steps;
  pass.chunks = K;
  pass.slots = slots;
  pass.slot_bytes = slot_bytes;
  pass.scratch = &scratch;
  pass.send_ahead = K;
  pass.reduce_overwrites_sent = true;
  pass.send = [&](size_t v) {
    const ElementRange e = chunk_of(v, 1);
    if (v < K) return ChunkPlace{a.send.region, a.send.offset + e.begin * esize, e.count * esize};
    return ChunkPlace{&scratch, out_slot(v), e.count * esize};
  };
  pass.land = [&](size_t u) { return ChunkPlace{nullptr, 0, chunk_of(u, 2).count * esize}; };
  pass.reduce = [&](size_t u, const char* arrived) {
    const ElementRange e = chunk_of(u, 2);
    const char* mine = a.send.data() + e.begin * esize;
    if (u / K + 1 < steps) return reduce(scratch.base() + out_slot(u), mine, arrived, e.count, a.dtype, a.op);
    char* dst = a.recv.data() + (e.begin - sched.segment(r).begin) * esize;
    reduce(dst, mine, arrived, e.count, a.dtype, a.op);
    if (a.op == ReduceOp::kAvg) divide(dst, e.count, a.dtype, n);
  };
  Connection& left = comm_.peer(sched.wrap(r - 1));
  Connection& right = comm_.peer(sched.wrap(r + 1));
  run_ring_pass(comm_, left, right, pass);
}

namespace {

void run_reduce_scatter(Communicator& comm, const ChunkPolicy& chunks, Algorithm a, const CollectiveArgs& args) {
  if (a == Algorithm::kHier) return hier_reduce_scatter(comm, chunks, args);
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
      .hierarchical = true,
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
