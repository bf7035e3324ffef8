// All-to-all (mixture-of-experts token exchange): rank r's part j of send goes to rank
// j, and arrives as part r of j's recv. Pairwise exchange: every receive is posted up
// front into its final place, then rank r sends to r+1, r+2, ... in turn, so at each
// moment the ranks' first outstanding sends go to distinct receivers and no rank is a
// hot spot; every link carries one part each way.
#include <cstring>

#include "algo/collectives.h"

namespace ccb {
namespace {

void run_all_to_all(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& args) {
  const int n = comm.size(), r = comm.rank();
  const size_t part = args.count * dtype_size(args.dtype);
  if (part == 0) return;
  BufferRef send = args.send;
  if (send == args.recv) {  // in place: what is sent must not be overwritten by what arrives
    const MemoryRegion& copy = comm.scratch(part * static_cast<size_t>(n));
    std::memcpy(copy.base(), send.data(), part * static_cast<size_t>(n));
    send = {&copy, 0};
  }
  auto at = [&](int rank) { return static_cast<size_t>(rank) * part; };
  if (!(send == args.recv)) std::memcpy(args.recv.data() + at(r), send.data() + at(r), part);
  std::vector<RequestPtr> requests;
  for (int s = 1; s < n; ++s) {
    const int from = (r - s + n) % n;
    requests.push_back(comm.peer(from).irecv(*args.recv.region, args.recv.offset + at(from), part, kTagAllToAll));
  }
  for (int s = 1; s < n; ++s) {
    const int to = (r + s) % n;
    requests.push_back(comm.peer(to).isend(*send.region, send.offset + at(to), part, kTagAllToAll));
  }
  comm.waiter().wait_all(requests);
}

// Part j of rank r's input is the pattern's elements j*count.. of rank r.
void fill(const CollectiveArgs& a, const PatternSpec& p, int rank, bool zeros) {
  const size_t total = a.count * static_cast<size_t>(p.world);
  if (zeros) std::memset(a.send.data(), 0, total * dtype_size(a.dtype));
  else fill_pattern(a.send.data(), total, 0, p, rank);
}

// Part j of rank r's output is part r of rank j's input.
uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  const size_t part = a.count * dtype_size(a.dtype);
  uint64_t wrong = 0;
  for (int j = 0; j < p.world; ++j)
    wrong += count_wrong_input(a.recv.data() + static_cast<size_t>(j) * part, a.count, static_cast<size_t>(rank) * a.count, p, j);
  return wrong;
}

}  // namespace

const CollectiveDescriptor& all_to_all_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kAllToAll,
      .name = "all_to_all",
      .trace_names = {"alltoall", "all-to-all"},
      .algorithms = {Algorithm::kDirect},
      .small_messages = Algorithm::kAuto,
      .reduces = false,
      .rooted = false,
      .permuted = false,
      .per_rank_parts = true,
      .busbw_factor = busbw_each_part,
      .run = run_all_to_all,
      .place_in_place = place_one_buffer,
      .fill = fill,
      .check = check,
      .peers = every_rank,
  };
  return d;
}

}  // namespace ccb
