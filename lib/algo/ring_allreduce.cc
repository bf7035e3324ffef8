#include "algo/ring_allreduce.h"

#include <algorithm>

#include "algo/ring_pipeline.h"
#include "algo/ring_schedule.h"
#include "core/reduce.h"

namespace ccb {

void RingAllreduce::run(const CollectiveArgs& a) {
  const int n = comm_.size(), r = comm_.rank();
  const size_t esize = dtype_size(a.dtype);
  if (finish_trivial_allreduce(a, n)) return;
  const RingSchedule sched(a.count, n, policy_.chunk_bytes / esize);
  const size_t K = sched.chunks_per_segment();
  const size_t reduce_steps = static_cast<size_t>(n - 1);
  // Step s sends segment r-s and receives segment r-s-1, in both phases. A reduce step
  // adds into the result buffer, and the next step sends from there.
  auto chunk_of = [&](size_t u, long long shift) {
    return sched.chunk(sched.wrap(r - static_cast<long long>(u / K) - shift), u % K);
  };
  auto in = [&](const BufferRef& b, ElementRange e) {
    return ChunkPlace{b.region, b.offset + e.begin * esize, e.count * esize};
  };
  RingPass pass;
  pass.steps = 2 * reduce_steps;
  pass.reduce_steps = reduce_steps;
  pass.chunks = K;
  pass.slots = static_cast<size_t>(std::max(policy_.slots, 1));
  pass.slot_bytes = (sched.segment(0).count + K - 1) / K * esize;
  pass.send = [&](size_t v) { return in(v < K ? a.send : a.recv, chunk_of(v, 0)); };
  pass.land = [&](size_t u) { return in(a.recv, chunk_of(u, 1)); };
  pass.reduce = [&](size_t u, const char* arrived) {
    const ElementRange e = chunk_of(u, 1);
    char* dst = a.recv.data() + e.begin * esize;
    reduce(dst, a.send.data() + e.begin * esize, arrived, e.count, a.dtype, a.op);
    if (u / K + 1 == reduce_steps && a.op == ReduceOp::kAvg) divide(dst, e.count, a.dtype, n);
  };
  Connection& left = comm_.peer(sched.wrap(r - 1));
  Connection& right = comm_.peer(sched.wrap(r + 1));
  run_ring_pass(comm_, left, right, pass);
}

}  // namespace ccb
