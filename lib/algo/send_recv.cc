// Send/recv (pipeline parallelism's activations): rank r sends its count elements to
// rank r+1 and receives from r-1, as nccl-tests' sendrecv does; with --peer-map, to
// (*send_to)[r] and from whichever rank sends to r. A rank mapped to itself copies.
#include <cstring>

#include "algo/collectives.h"

namespace ccb {
namespace {

int send_target(const CollectiveArgs& a, int rank, int size) {
  return a.send_to ? (*a.send_to)[static_cast<size_t>(rank)] : (rank + 1) % size;
}

int recv_source(const CollectiveArgs& a, int rank, int size) {
  if (!a.send_to) return (rank + size - 1) % size;
  for (int r = 0; r < size; ++r)
    if ((*a.send_to)[static_cast<size_t>(r)] == rank) return r;
  return rank;  // not a permutation: refused before any rank starts (validate_peer_map)
}

void run_send_recv(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& args) {
  const int n = comm.size(), r = comm.rank();
  const size_t bytes = args.count * dtype_size(args.dtype);
  const int to = send_target(args, r, n), from = recv_source(args, r, n);
  if (bytes == 0) return;
  if (to == r) {
    if (!(args.send == args.recv)) std::memcpy(args.recv.data(), args.send.data(), bytes);
    return;
  }
  BufferRef send = args.send;
  if (send == args.recv) {  // in place: send a copy, receive over the original
    const MemoryRegion& copy = comm.scratch(bytes);
    std::memcpy(copy.base(), send.data(), bytes);
    send = {&copy, 0};
  }
  std::vector<RequestPtr> requests;
  requests.push_back(comm.peer(from).irecv(*args.recv.region, args.recv.offset, bytes, kTagSendRecv));
  requests.push_back(comm.peer(to).isend(*send.region, send.offset, bytes, kTagSendRecv));
  comm.waiter().wait_all(requests);
}

uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  return count_wrong_input(a.recv.data(), a.count, 0, p, recv_source(a, rank, p.world));
}

std::vector<int> peers(Algorithm, const CollectiveArgs& args, int rank, int size) {
  return {send_target(args, rank, size), recv_source(args, rank, size)};
}

}  // namespace

const CollectiveDescriptor& send_recv_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kSendRecv,
      .name = "send_recv",
      .trace_names = {"sendrecv"},
      .algorithms = {Algorithm::kDirect},
      .small_messages = Algorithm::kAuto,
      .reduces = false,
      .rooted = false,
      .permuted = true,
      .per_rank_parts = false,
      .busbw_factor = busbw_whole,
      .run = run_send_recv,
      .place_in_place = place_one_buffer,
      .fill = fill_own_input,
      .check = check,
      .peers = peers,
  };
  return d;
}

}  // namespace ccb
