// Broadcast: every rank ends with the root's count elements. One pipelined tree
// algorithm over two shapes: the chain root, root+1, ... (`ring`: each link carries the
// message once, for large messages) and the binary tree (`tree`: log2(n) hops, for
// small ones). Chunks land in their final place, so every receive is posted up front
// and a chunk is forwarded to the children as soon as it arrives.
#include <algorithm>
#include <cstring>

#include "algo/binary_tree.h"
#include "algo/collectives.h"
#include "algo/hier_collectives.h"

namespace ccb {
namespace {

TreeNode shape(Algorithm a, int n, int rank, int root) { return rooted_tree_node(n, rank, root, a != Algorithm::kTree); }

void run_broadcast(Communicator& comm, const ChunkPolicy& chunks, Algorithm a, const CollectiveArgs& args) {
  if (a == Algorithm::kHier) return hier_broadcast(comm, chunks, args);
  const size_t esize = dtype_size(args.dtype), bytes = args.count * esize;
  const int n = comm.size(), r = comm.rank();
  if (r == args.root && !(args.send == args.recv)) std::memcpy(args.recv.data(), args.send.data(), bytes);
  if (n == 1 || bytes == 0) return;
  const TreeNode node = shape(a, n, r, args.root);
  const size_t chunk = std::max<size_t>(chunks.chunk_bytes / esize, 1) * esize;
  const size_t pieces = (bytes + chunk - 1) / chunk;
  auto piece = [&](size_t i) { return std::pair{i * chunk, std::min(chunk, bytes - i * chunk)}; };
  std::vector<RequestPtr> recvs, sends;
  if (node.parent >= 0)
    for (size_t i = 0; i < pieces; ++i) {
      auto [at, len] = piece(i);
      recvs.push_back(comm.peer(node.parent).irecv(*args.recv.region, args.recv.offset + at, len, kTagBroadcast));
    }
  for (size_t i = 0; i < pieces; ++i) {
    if (node.parent >= 0) comm.waiter().wait(*recvs[i]);
    auto [at, len] = piece(i);
    for (int child : node.children)
      sends.push_back(comm.peer(child).isend(*args.recv.region, args.recv.offset + at, len, kTagBroadcast));
  }
  comm.waiter().wait_all(sends);
}

// The root's input is the pattern of rank `root`; the others' inputs are not read.
void fill(const CollectiveArgs& a, const PatternSpec& p, int rank, bool zeros) {
  if (zeros || rank != a.root) std::memset(a.send.data(), 0, a.count * dtype_size(a.dtype));
  else fill_pattern(a.send.data(), a.count, 0, p, a.root);
}

uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int) { return count_wrong_input(a.recv.data(), a.count, 0, p, a.root); }

std::vector<int> peers(Algorithm a, const CollectiveArgs& args, int rank, int size) {
  return neighbours(shape(a, size, rank, args.root));
}

}  // namespace

const CollectiveDescriptor& broadcast_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kBroadcast,
      .name = "broadcast",
      .trace_names = {"bcast"},
      .algorithms = {Algorithm::kRing, Algorithm::kTree},
      .hierarchical = true,
      .small_messages = Algorithm::kTree,
      .reduces = false,
      .rooted = true,
      .permuted = false,
      .per_rank_parts = false,
      .busbw_factor = busbw_whole,
      .run = run_broadcast,
      .place_in_place = place_one_buffer,
      .fill = fill,
      .check = check,
      .peers = peers,
  };
  return d;
}

}  // namespace ccb
