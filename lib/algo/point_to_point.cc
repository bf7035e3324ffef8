// Point-to-point tests, as perftest runs them on verbs, over any transport: ranks in
// pairs (r with r^1, or with (*send_to)[r], an involution, as the scan's rounds pair
// them); a rank paired with itself sits the call out.
//   p2p_bw:    the lower rank of a pair sends `window` messages, all in flight at once
//              (perftest's --tx-depth), and the higher receives them and answers with an
//              empty message, so a sender never runs more than a window ahead of what
//              arrived (without it the receiver's transport would hold the excess);
//   p2p_bidir: both ranks send `window` messages and receive as many (ib_write_bw -b);
//   p2p_lat:   one message there and one back (a ping-pong); a call is a round trip.
// Receives are posted before sends, so no message waits in an unexpected queue.
#include <cstring>

#include "algo/collectives.h"

namespace ccb {
namespace {

int partner(const CollectiveArgs& a, int rank, int size) {
  if (a.send_to) return (*a.send_to)[static_cast<size_t>(rank)];
  const int other = rank ^ 1;
  return other < size ? other : rank;
}

size_t message_bytes(const CollectiveArgs& a) { return a.count * dtype_size(a.dtype); }

void post(Communicator& comm, int peer, const BufferRef& at, size_t bytes, int messages, bool send,
          std::vector<RequestPtr>& out) {
  Connection& c = comm.peer(peer);
  for (int i = 0; i < messages; ++i)
    out.push_back(send ? c.isend(*at.region, at.offset, bytes, kTagPointToPoint)
                       : c.irecv(*at.region, at.offset, bytes, kTagPointToPoint));
}

void run_one_way(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& a) {
  const int me = comm.rank(), peer = partner(a, me, comm.size());
  if (peer == me) return;
  Connection& c = comm.peer(peer);
  std::vector<RequestPtr> requests;
  if (me < peer) {
    requests.push_back(c.irecv(*a.recv.region, a.recv.offset, 0, kTagPointToPointDone));
    post(comm, peer, a.send, message_bytes(a), a.window, true, requests);
    comm.waiter().wait_all(requests);
    return;
  }
  post(comm, peer, a.recv, message_bytes(a), a.window, false, requests);
  comm.waiter().wait_all(requests);
  RequestPtr done = c.isend(*a.send.region, a.send.offset, 0, kTagPointToPointDone);
  comm.waiter().wait(*done);
}

void run_both_ways(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& a) {
  const int me = comm.rank(), peer = partner(a, me, comm.size());
  if (peer == me) return;
  std::vector<RequestPtr> requests;
  post(comm, peer, a.recv, message_bytes(a), a.window, false, requests);
  post(comm, peer, a.send, message_bytes(a), a.window, true, requests);
  comm.waiter().wait_all(requests);
}

// The lower rank pings; the higher answers once the ping is in.
void run_ping_pong(Communicator& comm, const ChunkPolicy&, Algorithm, const CollectiveArgs& a) {
  const int me = comm.rank(), peer = partner(a, me, comm.size());
  if (peer == me) return;
  Connection& c = comm.peer(peer);
  const size_t bytes = message_bytes(a);
  RequestPtr in = c.irecv(*a.recv.region, a.recv.offset, bytes, kTagPointToPoint);
  if (me > peer) comm.waiter().wait(*in);
  RequestPtr out = c.isend(*a.send.region, a.send.offset, bytes, kTagPointToPoint);
  comm.waiter().wait(*out);
  comm.waiter().wait(*in);
}

// Whatever a rank received came from its partner's input; a rank that only sends has
// nothing to check.
uint64_t check_received(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  const int peer = partner(a, rank, p.world);
  if (peer == rank) return 0;
  return count_wrong_input(a.recv.data(), a.count, 0, p, peer);
}

uint64_t check_one_way(const CollectiveArgs& a, const PatternSpec& p, int rank) {
  return rank < partner(a, rank, p.world) ? 0 : check_received(a, p, rank);
}

std::vector<int> peers(Algorithm, const CollectiveArgs& args, int rank, int size) { return {partner(args, rank, size)}; }

double busbw_both_directions(int) { return 2.0; }

CollectiveDescriptor point_to_point(CollectiveKind kind, std::string_view name, decltype(CollectiveDescriptor::run) run,
                                    decltype(CollectiveDescriptor::check) check, bool windowed,
                                    double (*busbw)(int)) {
  const TableColumns columns = windowed ? TableColumns::kBandwidth : TableColumns::kLatency;
  return CollectiveDescriptor{
      .kind = kind,
      .name = name,
      .trace_names = {},
      .algorithms = {Algorithm::kDirect},
      .small_messages = Algorithm::kAuto,
      .medium_messages = Algorithm::kAuto,
      .reduces = false,
      .rooted = false,
      .permuted = false,
      .uneven = false,
      .per_rank_parts = false,
      .windowed = windowed,
      .columns = columns,
      .busbw_factor = busbw,
      .run = run,
      .place_in_place = nullptr,  // a message and its answer, or its echo, would overwrite each other
      .fill = fill_own_input,
      .check = check,
      .peers = peers,
  };
}

}  // namespace

const CollectiveDescriptor& p2p_bw_descriptor() {
  static const CollectiveDescriptor d =
      point_to_point(CollectiveKind::kP2pBw, "p2p_bw", run_one_way, check_one_way, true, busbw_whole);
  return d;
}

// busbw: both directions together, as ib_write_bw -b reports; algbw is one direction's.
const CollectiveDescriptor& p2p_bidir_descriptor() {
  static const CollectiveDescriptor d =
      point_to_point(CollectiveKind::kP2pBidir, "p2p_bidir", run_both_ways, check_received, true, busbw_both_directions);
  return d;
}

const CollectiveDescriptor& p2p_lat_descriptor() {
  static const CollectiveDescriptor d =
      point_to_point(CollectiveKind::kP2pLat, "p2p_lat", run_ping_pong, check_received, false, busbw_whole);
  return d;
}

}  // namespace ccb
