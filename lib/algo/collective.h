// What a collective call names: registered buffers, a count, a type and an operator.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dtype.h"
#include "transport/transport.h"

namespace ccb {

struct SplitMatrix;

struct BufferRef {
  const MemoryRegion* region = nullptr;
  size_t offset = 0;
  char* data() const { return region->base() + offset; }
  bool operator==(const BufferRef& o) const { return region == o.region && offset == o.offset; }
};

// count means, per collective (as in NCCL):
//   allreduce: elements in send and in recv;
//   reduce-scatter: elements each rank receives (send holds size x count);
//   all-gather: elements each rank sends (recv holds size x count).
//   broadcast, reduce, send/recv: elements in send and in recv;
//   all-to-all: elements each rank sends to each rank (send and recv hold size x count);
//   all-to-allv: elements each rank sends in all (recv holds what `splits` sends it);
//   gather: elements each rank sends (the root's recv holds size x count);
//   scatter: elements each rank receives (the root's send holds size x count).
// In-place: send == recv for allreduce, broadcast, reduce, all-to-all and send/recv;
// for reduce-scatter and scatter recv = send + rank x count; for all-gather and gather
// send = recv + rank x count.
struct CollectiveArgs {
  BufferRef send;
  BufferRef recv;
  size_t count = 0;
  DataType dtype = DataType::kF32;
  ReduceOp op = ReduceOp::kSum;
  int root = 0;                             // broadcast, reduce, gather and scatter
  const std::vector<int>* send_to = nullptr;  // send/recv: rank r sends to (*send_to)[r]; null: r + 1
  const SplitMatrix* splits = nullptr;        // all-to-allv: elements per (sender, receiver)
  int window = 1;                             // point-to-point: messages in flight per call
};

// Count 0, or a single rank (a copy when out of place): true when nothing else is left to do.
bool finish_trivial_allreduce(const CollectiveArgs& a, int ranks);

// Pipelining: messages are cut into chunks; `slots` chunks are received ahead.
struct ChunkPolicy {
  size_t chunk_bytes = 512 << 10;
  int slots = 4;
};

// Every message tag a collective uses (distinct tags keep phases apart per peer).
enum CollectiveTag : uint32_t {
  kTagRingStep = 0x100000,  // + step: one tag per ring step (ring_pipeline.h)
  kTagTreeUp = 0x400,    // + tree index
  kTagTreeDown = 0x500,  // + tree index
  kTagDoubling = 0x600,  // + step: recursive doubling's exchanges (at most 31)
  kTagDoublingFold = 0x6f0,
  kTagDoublingUnfold = 0x6f1,
  kTagBroadcast = 0x700,
  kTagReduce = 0x800,
  kTagAllToAll = 0x900,
  kTagSendRecv = 0xa00,
  kTagAllToAllv = 0xb00,
  kTagGather = 0xc00,
  kTagScatter = 0xd00,
  kTagPointToPoint = 0xe00,
  kTagPointToPointDone = 0xe01,
  kTagHopPing = 0xf00,  // --hops: the clock ping-pong (hop_timeline.h)
  kTagHopPong = 0xf01,
};

inline uint32_t ring_step_tag(size_t step) { return kTagRingStep + static_cast<uint32_t>(step); }

}  // namespace ccb
