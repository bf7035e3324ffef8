#include "algo/hier_collectives.h"

#include <cstring>
#include <utility>

#include "algo/algorithm_choice.h"
#include "algo/all_gather.h"
#include "algo/collectives.h"
#include "algo/host_hierarchy.h"
#include "algo/reduce_scatter.h"
#include "core/error.h"
#include "core/reduce.h"

namespace ccb {
namespace {

// Where part (host, local) sits in the packed order: block by local rank, then host.
size_t packed_part(int host, int local, int hosts) {
  return static_cast<size_t>(local) * static_cast<size_t>(hosts) + static_cast<size_t>(host);
}

// Copies every world-ordered part of `world_parts` into its packed place, or back.
void repack(HostHierarchy& h, char* world_parts, char* packed, size_t part_bytes, bool to_packed) {
  const int hosts = h.inter().size(), per_host = h.intra().size();
  for (int host = 0; host < hosts; ++host)
    for (int local = 0; local < per_host; ++local) {
      char* w = world_parts + static_cast<size_t>(h.world_rank(host, local)) * part_bytes;
      char* p = packed + packed_part(host, local, hosts) * part_bytes;
      if (to_packed) std::memcpy(p, w, part_bytes);
      else std::memcpy(w, p, part_bytes);
    }
}

Algorithm inter_broadcast_algorithm(HostHierarchy& h, uint64_t bytes) {
  if (h.inter_algorithm() != Algorithm::kAuto && h.inter_algorithm() != Algorithm::kRecursiveDoubling)
    return h.inter_algorithm();
  return shipped_algorithm(describe(CollectiveKind::kBroadcast), h.inter().size(), bytes);
}

}  // namespace

void hier_reduce_scatter(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& a) {
  HostHierarchy& h = hierarchy_of(world);
  if (a.count == 0) return;
  const int hosts = h.inter().size();
  const size_t part = a.count * dtype_size(a.dtype);
  const ReduceOp leg_op = a.op == ReduceOp::kAvg ? ReduceOp::kSum : a.op;
  const StagedBuffer packed = h.staging(0, part * static_cast<size_t>(world.size()));
  const StagedBuffer block = h.staging(1, part * static_cast<size_t>(hosts));
  {
    LegTimer timer(h.legs().intra_before_us);
    repack(h, a.send.data(), packed.data, part, true);
    CollectiveArgs host = a;
    host.send = packed.intra;
    host.recv = block.intra;
    host.count = a.count * static_cast<size_t>(hosts);
    host.op = leg_op;
    RingReduceScatter(h.intra(), chunks).run(host);
  }
  {
    LegTimer timer(h.legs().inter_us);
    CollectiveArgs rail = a;
    rail.send = block.inter;
    rail.recv = h.on_inter(a.recv);
    rail.op = leg_op;
    RingReduceScatter(h.inter(), chunks).run(rail);
    if (a.op == ReduceOp::kAvg) divide(a.recv.data(), a.count, a.dtype, world.size());
  }
  h.legs().inter_algorithm = h.legs().intra_algorithm = Algorithm::kRing;
  ++h.legs().calls;
}

void hier_all_gather(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& a) {
  HostHierarchy& h = hierarchy_of(world);
  if (a.count == 0) return;
  const int hosts = h.inter().size();
  const size_t part = a.count * dtype_size(a.dtype);
  const StagedBuffer block = h.staging(0, part * static_cast<size_t>(hosts));
  const StagedBuffer packed = h.staging(1, part * static_cast<size_t>(world.size()));
  {
    LegTimer timer(h.legs().inter_us);
    CollectiveArgs rail = a;
    rail.send = h.on_inter(a.send);
    rail.recv = block.inter;
    RingAllGather(h.inter(), chunks).run(rail);
  }
  {
    LegTimer timer(h.legs().intra_after_us);
    CollectiveArgs host = a;
    host.send = block.intra;
    host.recv = packed.intra;
    host.count = a.count * static_cast<size_t>(hosts);
    RingAllGather(h.intra(), chunks).run(host);
    repack(h, a.recv.data(), packed.data, part, false);
  }
  h.legs().inter_algorithm = h.legs().intra_algorithm = Algorithm::kRing;
  ++h.legs().calls;
}

// The root's (host, local rank).
static std::pair<int, int> root_place(HostHierarchy& h, int root) {
  for (int host = 0; host < h.inter().size(); ++host)
    for (int local = 0; local < h.intra().size(); ++local)
      if (h.world_rank(host, local) == root) return {host, local};
  throw_invalid("--root " + std::to_string(root) + " is not on any host of the hierarchy");
}

void hier_broadcast(Communicator& world, const ChunkPolicy& chunks, const CollectiveArgs& a) {
  HostHierarchy& h = hierarchy_of(world);
  if (a.count == 0) return;
  const auto [root_host, root_local] = root_place(h, a.root);
  const int per_host = h.intra().size();
  const size_t esize = dtype_size(a.dtype);
  const size_t part = (a.count + static_cast<size_t>(per_host) - 1) / static_cast<size_t>(per_host);  // elements
  const size_t part_bytes = part * esize;
  const Algorithm across = inter_broadcast_algorithm(h, part_bytes);
  // Padded to K equal parts: the last may hold fewer of the buffer's elements.
  const StagedBuffer staged = h.staging(0, part_bytes * static_cast<size_t>(per_host));
  const size_t mine = static_cast<size_t>(h.intra().rank()) * part_bytes;
  {
    LegTimer timer(h.legs().intra_before_us);
    const bool root = world.rank() == a.root;
    if (root) std::memcpy(staged.data, a.send.data(), a.count * esize);
    if (h.inter().rank() == root_host) {
      CollectiveArgs host = a;
      host.send = staged.intra;
      host.recv = {staged.intra.region, staged.intra.offset + mine};
      host.count = part;
      host.root = root_local;
      describe(CollectiveKind::kScatter).run(h.intra(), chunks, Algorithm::kDirect, host);
    }
  }
  {
    LegTimer timer(h.legs().inter_us);
    CollectiveArgs rail = a;
    rail.send = rail.recv = {staged.inter.region, staged.inter.offset + mine};
    rail.count = part;
    rail.root = root_host;
    describe(CollectiveKind::kBroadcast).run(h.inter(), chunks, across, rail);
  }
  {
    LegTimer timer(h.legs().intra_after_us);
    CollectiveArgs host = a;
    host.send = {staged.intra.region, staged.intra.offset + mine};
    host.recv = staged.intra;
    host.count = part;
    RingAllGather(h.intra(), chunks).run(host);
    std::memcpy(a.recv.data(), staged.data, a.count * esize);
  }
  h.legs().inter_algorithm = across;
  h.legs().intra_algorithm = Algorithm::kRing;
  ++h.legs().calls;
}

}  // namespace ccb
