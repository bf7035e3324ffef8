#include "algo/all_gather.h"

#include <algorithm>
#include <cstring>

#include "algo/collectives.h"
#include "algo/hier_collectives.h"
#include "algo/ring_pipeline.h"
#include "algo/ring_schedule.h"

namespace ccb {

void RingAllGather::run(const CollectiveArgs& a) {
  const int n = comm_.size(), r = comm_.rank();
  const size_t esize = dtype_size(a.dtype);
  if (a.count == 0) return;
  const size_t own = static_cast<size_t>(r) * a.count * esize;
  if (a.send.data() != a.recv.data() + own) std::memcpy(a.recv.data() + own, a.send.data(), a.count * esize);
  if (n == 1) return;
  const RingSchedule sched = RingSchedule::uniform(a.count, n, policy_.chunk_bytes / esize);
  const size_t K = sched.chunks_per_segment();
  // Step s sends segment r-s and receives r-s-1, all in place in the result.
  auto place = [&](size_t u, long long shift) {
    const ElementRange e = sched.chunk(sched.wrap(r - static_cast<long long>(u / K) - shift), u % K);
    return ChunkPlace{a.recv.region, a.recv.offset + e.begin * esize, e.count * esize};
  };
  RingPass pass;
  pass.steps = static_cast<size_t>(n - 1);
  pass.chunks = K;
  pass.slots = static_cast<size_t>(std::max(policy_.slots, 1));
  pass.send = [&](size_t v) { return place(v, 0); };
  pass.land = [&](size_t u) { return place(u, 1); };
  Connection& left = comm_.peer(sched.wrap(r - 1));
  Connection& right = comm_.peer(sched.wrap(r + 1));
  run_ring_pass(comm_, left, right, pass);
}

namespace {

void run_all_gather(Communicator& comm, const ChunkPolicy& chunks, Algorithm a, const CollectiveArgs& args) {
  if (a == Algorithm::kHier) return hier_all_gather(comm, chunks, args);
  RingAllGather(comm, chunks).run(args);
}

}  // namespace

const CollectiveDescriptor& all_gather_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kAllGather,
      .name = "all_gather",
      .trace_names = {"allgather", "all-gather"},
      .algorithms = {Algorithm::kRing},
      .hierarchical = true,
      .reduces = false,
      .per_rank_parts = true,
      .busbw_factor = busbw_each_part,
      .run = run_all_gather,
      .place_in_place = place_own_part_of_recv,
      .fill = fill_own_part,
      .check = count_wrong_gathered,
  };
  return d;
}

}  // namespace ccb
