// All-to-allv (mixture-of-experts dispatch with real routing): rank r sends
// splits.at(r, j) elements to rank j, parts laid out in rank order on both sides (the
// displacements NCCL users compute with ncclSend/ncclRecv groups). The schedule is
// all_to_all's: every receive posted first, then sends to r+1, r+2, ... Zero-length
// parts are neither sent nor received.
#include <cstring>

#include "algo/collectives.h"
#include "algo/splits.h"
#include "core/error.h"

namespace ccb {
namespace {

void run_all_to_allv(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& args) {
  if (!args.splits) throw_invalid("all_to_allv needs its splits: --splits FILE or --splits moe:skew=S,seed=N");
  const SplitMatrix& m = *args.splits;
  const int n = comm.size(), r = comm.rank();
  const size_t esize = dtype_size(args.dtype);
  std::memcpy(args.recv.data() + m.recv_offset(r, r) * esize, args.send.data() + m.send_offset(r, r) * esize, m.at(r, r) * esize);
  std::vector<RequestPtr> requests;
  for (int s = 1; s < n; ++s) {
    const int from = (r - s + n) % n;
    if (const uint64_t len = m.at(from, r) * esize)
      requests.push_back(comm.peer(from).irecv(*args.recv.region, args.recv.offset + m.recv_offset(from, r) * esize, len, kTagAllToAllv));
  }
  for (int s = 1; s < n; ++s) {
    const int to = (r + s) % n;
    if (const uint64_t len = m.at(r, to) * esize)
      requests.push_back(comm.peer(to).isend(*args.send.region, args.send.offset + m.send_offset(r, to) * esize, len, kTagAllToAllv));
  }
  comm.waiter().wait_all(requests);
}

// Rank r's part for j holds the pattern's elements send_offset(r, j).. of rank r.
uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  const SplitMatrix& m = *a.splits;
  const size_t esize = dtype_size(a.dtype);
  uint64_t wrong = 0;
  for (int j = 0; j < p.world; ++j)
    wrong += count_wrong_input(a.recv.data() + m.recv_offset(j, rank) * esize, m.at(j, rank), m.send_offset(j, rank), p, j);
  return wrong;
}

}  // namespace

const CollectiveDescriptor& all_to_allv_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kAllToAllv,
      .name = "all_to_allv",
      .trace_names = {"alltoallv", "all-to-allv"},
      .algorithms = {Algorithm::kDirect},
      .small_messages = Algorithm::kAuto,
      .reduces = false,
      .rooted = false,
      .permuted = false,
      .uneven = true,
      .per_rank_parts = false,
      .busbw_factor = busbw_each_part,
      .run = run_all_to_allv,
      .place_in_place = nullptr,  // a rank receives another amount than it sends
      .fill = fill_own_input,
      .check = check,
      .peers = every_rank,
  };
  return d;
}

}  // namespace ccb
