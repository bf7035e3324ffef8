// Scatter: rank j ends with part j of the root's n x count elements, as nccl-tests'
// scatter (built from send/recv) has them. Direct: every rank posts its receive, the
// root sends each part straight to its rank.
#include <cstring>

#include "algo/collectives.h"

namespace ccb {
namespace {

void run_scatter(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& args) {
  const int n = comm.size(), r = comm.rank();
  const size_t part = args.count * dtype_size(args.dtype);
  if (part == 0) return;
  if (r != args.root) {
    RequestPtr in = comm.peer(args.root).irecv(*args.recv.region, args.recv.offset, part, kTagScatter);
    comm.waiter().wait(*in);
    return;
  }
  const char* own = args.send.data() + static_cast<size_t>(r) * part;
  if (args.recv.data() != own) std::memcpy(args.recv.data(), own, part);
  std::vector<RequestPtr> sends;
  for (int j = 0; j < n; ++j)
    if (j != r) sends.push_back(comm.peer(j).isend(*args.send.region, args.send.offset + static_cast<size_t>(j) * part, part, kTagScatter));
  comm.waiter().wait_all(sends);
}

// In place, a rank's output is its own part of the input, as in reduce_scatter.
void place_in_place(CollectiveArgs& a, int rank) {
  a.recv = {a.send.region, a.send.offset + static_cast<size_t>(rank) * a.count * dtype_size(a.dtype)};
}

// The root's n x count input is the root's pattern; the others' inputs are not read.
void fill(const CollectiveArgs& a, const PatternSpec& p, int rank, bool zeros) {
  const size_t total = a.count * static_cast<size_t>(p.world);
  if (zeros || rank != a.root) std::memset(a.send.data(), 0, total * dtype_size(a.dtype));
  else fill_pattern(a.send.data(), total, 0, p, a.root);
}

uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  return count_wrong_input(a.recv.data(), a.count, static_cast<size_t>(rank) * a.count, p, a.root);
}

}  // namespace

const CollectiveDescriptor& scatter_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kScatter,
      .name = "scatter",
      .trace_names = {},
      .algorithms = {Algorithm::kDirect},
      .small_messages = Algorithm::kAuto,
      .reduces = false,
      .rooted = true,
      .permuted = false,
      .uneven = false,
      .per_rank_parts = true,
      .busbw_factor = busbw_each_part,
      .run = run_scatter,
      .place_in_place = place_in_place,
      .fill = fill,
      .check = check,
      .peers = root_and_everyone,
  };
  return d;
}

}  // namespace ccb
