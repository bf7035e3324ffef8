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

// In place, a rank's input is its own part of the output, as in all_gather.
void place_in_place(CollectiveArgs& a, int rank) {
  a.send = {a.recv.region, a.recv.offset + static_cast<size_t>(rank) * a.count * dtype_size(a.dtype)};
}

void fill(const CollectiveArgs& a, const PatternSpec& p, int rank, bool zeros) {
  if (zeros) std::memset(a.send.data(), 0, a.count * dtype_size(a.dtype));
  else fill_pattern(a.send.data(), a.count, static_cast<size_t>(rank) * a.count, p, rank);
}

// Only the root's output is defined: part j is rank j's input.
uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  if (rank != a.root) return 0;
  const size_t part = a.count * dtype_size(a.dtype);
  uint64_t wrong = 0;
  for (int j = 0; j < p.world; ++j)
    wrong += count_wrong_input(a.recv.data() + static_cast<size_t>(j) * part, a.count, static_cast<size_t>(j) * a.count, p, j);
  return wrong;
}

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
      .busbw_factor = [](int n) { return n > 1 ? static_cast<double>(n - 1) / n : 0.0; },
      .run = run_gather,
      .place_in_place = place_in_place,
      .fill = fill,
      .check = check,
      .peers = root_and_everyone,
  };
  return d;
}

}  // namespace ccb
