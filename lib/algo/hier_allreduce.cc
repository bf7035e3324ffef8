#include "algo/hier_allreduce.h"

#include "algo/algorithm_choice.h"
#include "algo/collectives.h"
#include "algo/host_hierarchy.h"
#include "algo/ring_allreduce.h"
#include "core/reduce.h"

namespace ccb {

// The legs sum kAvg; the world's size divides once, at the end, so the result is the
// same bits as a flat AllReduce's.
void hier_allreduce(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& a) {
  HostHierarchy& h = hierarchy_of(world);
  if (finish_trivial_allreduce(a, world.size())) return;
  const size_t esize = dtype_size(a.dtype);
  const ReduceOp leg_op = a.op == ReduceOp::kAvg ? ReduceOp::kSum : a.op;
  CollectiveArgs host = a;
  host.send = h.on_intra(a.send);
  host.recv = h.on_intra(a.recv);
  host.op = leg_op;
  RingAllreduce ring(h.intra(), chunks);
  {
    LegTimer timer(h.legs().intra_before_us);
    ring.reduce_scatter_half(host);  // one rank on the host: a copy into recv
  }
  const ElementRange mine = h.intra().size() > 1 ? ring.owned_segment(host) : ElementRange{0, a.count};
  {
    LegTimer timer(h.legs().inter_us);
    CollectiveArgs rail = a;
    rail.recv = rail.send = h.on_inter({a.recv.region, a.recv.offset + mine.begin * esize});
    rail.count = mine.count;
    rail.op = leg_op;
    const CollectiveDescriptor& d = describe(CollectiveKind::kAllreduce);
    const Algorithm algo = h.inter_algorithm() == Algorithm::kAuto
                               ? shipped_algorithm(d, h.inter().size(), static_cast<uint64_t>(mine.count) * esize)
                               : h.inter_algorithm();
    d.run(h.inter(), chunks, algo, rail);
    h.legs().inter_algorithm = algo;
    h.legs().intra_algorithm = Algorithm::kRing;
    if (a.op == ReduceOp::kAvg) divide(rail.recv.data(), mine.count, a.dtype, world.size());
  }
  {
    LegTimer timer(h.legs().intra_after_us);
    ring.all_gather_half(host);
  }
  ++h.legs().calls;
}

}  // namespace ccb
