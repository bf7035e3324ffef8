#include "algo/ring_allreduce.h"

#include <algorithm>

#include "algo/ring_pipeline.h"
#include "core/reduce.h"

namespace ccb {

void RingAllreduce::run(const CollectiveArgs& a) {
  if (finish_trivial_allreduce(a, comm_.size())) return;
  const size_t n = static_cast<size_t>(comm_.size());
  run_steps(a, 0, 2 * (n - 1), true);
}

void RingAllreduce::reduce_scatter_half(const CollectiveArgs& a) {
  if (finish_trivial_allreduce(a, comm_.size())) return;
  run_steps(a, 0, static_cast<size_t>(comm_.size() - 1), false);
}

void RingAllreduce::all_gather_half(const CollectiveArgs& a) {
  if (a.count == 0 || comm_.size() == 1) return;
  const size_t n = static_cast<size_t>(comm_.size());
  run_steps(a, n - 1, n - 1, false);
}

// The last reduce step lands segment r - (n-1), that is r + 1.
ElementRange RingAllreduce::owned_segment(const CollectiveArgs& a) const {
  const RingSchedule sched(a.count, comm_.size(), policy_.chunk_bytes / dtype_size(a.dtype));
  return sched.segment(sched.wrap(comm_.rank() + 1));
}

void RingAllreduce::run_steps(const CollectiveArgs& a, size_t first, size_t steps, bool divides) {
  const int n = comm_.size(), r = comm_.rank();
  const size_t esize = dtype_size(a.dtype);
  const RingSchedule sched(a.count, n, policy_.chunk_bytes / esize);
  const size_t K = sched.chunks_per_segment();
  const size_t reduce_steps = static_cast<size_t>(n - 1);
  // Step s sends segment r-s and receives segment r-s-1, in both phases. A reduce step
  // adds into the result buffer, and the next step sends from there. Units count from
  // the whole AllReduce's first step, so either half sends and lands what it would.
  const size_t skip = first * K;
  auto chunk_of = [&](size_t u, long long shift) {
    return sched.chunk(sched.wrap(r - static_cast<long long>(u / K) - shift), u % K);
  };
  auto in = [&](const BufferRef& b, ElementRange e) {
    return ChunkPlace{b.region, b.offset + e.begin * esize, e.count * esize};
  };
  RingPass pass;
  pass.steps = steps;
  pass.reduce_steps = first < reduce_steps ? std::min(steps, reduce_steps - first) : 0;
  pass.chunks = K;
  pass.slots = static_cast<size_t>(std::max(policy_.slots, 1));
  pass.slot_bytes = (sched.segment(0).count + K - 1) / K * esize;
  pass.send = [&](size_t v) { return in(v + skip < K ? a.send : a.recv, chunk_of(v + skip, 0)); };
  pass.land = [&](size_t u) { return in(a.recv, chunk_of(u + skip, 1)); };
  pass.reduce = [&](size_t u, const char* arrived) {
    const ElementRange e = chunk_of(u + skip, 1);
    char* dst = a.recv.data() + e.begin * esize;
    reduce(dst, a.send.data() + e.begin * esize, arrived, e.count, a.dtype, a.op);
    if (divides && (u + skip) / K + 1 == reduce_steps && a.op == ReduceOp::kAvg) divide(dst, e.count, a.dtype, n);
  };
  Connection& left = comm_.peer(sched.wrap(r - 1));
  Connection& right = comm_.peer(sched.wrap(r + 1));
  run_ring_pass(comm_, left, right, pass);
}

}  // namespace ccb
