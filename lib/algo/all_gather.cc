#include "algo/all_gather.h"

#include <cstring>

#include "algo/collectives.h"
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
  const size_t K = sched.chunks_per_segment(), steps = static_cast<size_t>(n - 1), units = steps * K;
  Connection& left = comm_.peer(sched.wrap(r - 1));
  Connection& right = comm_.peer(sched.wrap(r + 1));

  // Everything lands in its final place, so every receive is posted up front.
  auto chunk_at = [&](size_t s, size_t c, long long shift) { return sched.chunk(sched.wrap(r - static_cast<long long>(s) - shift), c); };
  std::vector<RequestPtr> recvs(units), sends;
  for (size_t u = 0; u < units; ++u) {
    ElementRange e = chunk_at(u / K, u % K, 1);
    if (!e.empty()) recvs[u] = left.irecv(*a.recv.region, a.recv.offset + e.begin * esize, e.count * esize, kTagAllGather);
  }
  auto post_send = [&](size_t s, size_t c) {
    ElementRange e = chunk_at(s, c, 0);
    if (!e.empty()) sends.push_back(right.isend(*a.recv.region, a.recv.offset + e.begin * esize, e.count * esize, kTagAllGather));
  };
  for (size_t c = 0; c < K; ++c) post_send(0, c);
  for (size_t u = 0; u < units; ++u) {
    if (recvs[u]) comm_.waiter().wait(*recvs[u]);
    if (u / K + 1 < steps) post_send(u / K + 1, u % K);
  }
  comm_.waiter().wait_all(sends);
}

namespace {

void run_all_gather(Communicator& comm, const ChunkPolicy& chunks, Algorithm, const CollectiveArgs& args) {
  RingAllGather(comm, chunks).run(args);
}

}  // namespace

const CollectiveDescriptor& all_gather_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kAllGather,
      .name = "all_gather",
      .trace_names = {"allgather", "all-gather"},
      .algorithms = {Algorithm::kRing},
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
