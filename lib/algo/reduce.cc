// Reduce: the root ends with the reduction of every rank's count elements. The mirror
// of broadcast.cc: a pipelined tree over the chain (`ring`, for large messages) or the
// binary tree (`tree`, for small ones). Each chunk from each child lands in a scratch
// part of its own, posted up front, is reduced into the rank's partial result as it
// arrives, and that chunk of the partial result goes up at once.
#include <algorithm>
#include <cstring>

#include "algo/binary_tree.h"
#include "algo/collectives.h"
#include "core/reduce.h"

namespace ccb {
namespace {

TreeNode shape(Algorithm a, int n, int rank, int root) { return rooted_tree_node(n, rank, root, a != Algorithm::kTree); }

void run_reduce(Communicator& comm, const ChunkPolicy& chunks, Algorithm a, const CollectiveArgs& args) {
  const size_t esize = dtype_size(args.dtype), bytes = args.count * esize;
  const int n = comm.size(), r = comm.rank();
  const bool root = r == args.root;
  if (n == 1 || bytes == 0) {
    if (root && !(args.send == args.recv)) std::memcpy(args.recv.data(), args.send.data(), bytes);
    return;
  }
  const TreeNode node = shape(a, n, r, args.root);
  const size_t kids = node.children.size();
  // The partial result: in recv at the root; elsewhere in scratch, so that an in-place
  // caller's input survives, as it does in NCCL.
  const MemoryRegion& scratch = comm.scratch((kids + 1) * bytes);
  const BufferRef partial = root ? args.recv : BufferRef{&scratch, kids * bytes};
  if (!(args.send == partial)) std::memcpy(partial.data(), args.send.data(), bytes);
  const size_t chunk = std::max<size_t>(chunks.chunk_bytes / esize, 1) * esize;
  const size_t pieces = (bytes + chunk - 1) / chunk;
  std::vector<std::vector<RequestPtr>> from_child(kids);
  for (size_t c = 0; c < kids; ++c)
    for (size_t i = 0; i < pieces; ++i)
      from_child[c].push_back(comm.peer(node.children[c]).irecv(scratch, c * bytes + i * chunk,
                                                                std::min(chunk, bytes - i * chunk), kTagReduce));
  std::vector<RequestPtr> sends;
  for (size_t i = 0; i < pieces; ++i) {
    const size_t at = i * chunk, len = std::min(chunk, bytes - at);
    for (size_t c = 0; c < kids; ++c) {
      comm.waiter().wait(*from_child[c][i]);
      reduce(partial.data() + at, partial.data() + at, scratch.base() + c * bytes + at, len / esize, args.dtype, args.op);
    }
    if (node.parent >= 0) sends.push_back(comm.peer(node.parent).isend(*partial.region, partial.offset + at, len, kTagReduce));
  }
  comm.waiter().wait_all(sends);
  if (root && args.op == ReduceOp::kAvg) divide(args.recv.data(), args.count, args.dtype, n);
}

// Only the root's output is defined.
uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  return rank == a.root ? count_wrong(a.recv.data(), a.count, 0, p) : 0;
}

std::vector<int> peers(Algorithm a, const CollectiveArgs& args, int rank, int size) {
  return neighbours(shape(a, size, rank, args.root));
}

}  // namespace

const CollectiveDescriptor& reduce_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kReduce,
      .name = "reduce",
      .trace_names = {},
      .algorithms = {Algorithm::kRing, Algorithm::kTree},
      .small_messages = Algorithm::kTree,
      .reduces = true,
      .rooted = true,
      .permuted = false,
      .per_rank_parts = false,
      .busbw_factor = busbw_whole,
      .run = run_reduce,
      .place_in_place = place_one_buffer,
      .fill = fill_own_input,
      .check = check,
      .peers = peers,
  };
  return d;
}

}  // namespace ccb
