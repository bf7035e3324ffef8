// Gather: the root ends with every rank's count elements, rank j's at part j, as
// nccl-tests' gather (built from send/recv) has them. Direct: the root posts a receive
// per rank, every other rank sends its part straight to it.
#include <cstring>

#include "algo/collectives.h"

namespace ccb {
namespace {

void run_gather(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& args) {
  const int n = comm.size(), r = comm.rank();
  const size_t part = args.count * dtype_size(args.dtype);
  if (part == 0) return;
  if (r != args.root) {
    RequestPtr out = comm.peer(args.root).isend(*args.send.region, args.send.offset, part, kTagGather);
    comm.waiter().wait(*out);
    return;
  }
  char* own = args.recv.data() + static_cast<size_t>(r) * part;
  if (args.send.data() != own) std::memcpy(own, args.send.data(), part);
  std::vector<RequestPtr> recvs;
  for (int j = 0; j < n; ++j)
    if (j != r) recvs.push_back(comm.peer(j).irecv(*args.recv.region, args.recv.offset + static_cast<size_t>(j) * part, part, kTagGather));
  comm.waiter().wait_all(recvs);
}

// Only the root's output is defined: all_gather's.
uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int rank) { return rank == a.root ? count_wrong_gathered(a, p, rank) : 0; }

}  // namespace

const CollectiveDescriptor& gather_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kGather,
      .name = "gather",
      .trace_names = {},
      .algorithms = {Algorithm::kDirect},
      .small_messages = Algorithm::kAuto,
      .reduces = false,
      .rooted = true,
      .permuted = false,
      .uneven = false,
      .per_rank_parts = true,
      .busbw_factor = busbw_each_part,
      .run = run_gather,
      .place_in_place = place_own_part_of_recv,
      .fill = fill_own_part,
      .check = check,
      .peers = root_and_everyone,
  };
  return d;
}

}  // namespace ccb
