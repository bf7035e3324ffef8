// Two transports in one process (ranks 0 and 1), connected to each other, and the
// transport contract checks that every backend must pass (transport_contract.cc).
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "core/memory_space.h"
#include "transport/registered_buffer.h"
#include "transport/request_wait.h"
#include "transport/tcp/tcp_options.h"
#include "transport/transport.h"

namespace ccb::test {

struct TransportPair {
  TransportPtr t0, t1;
  ConnectionPtr c0, c1;  // c0: rank 0's connection to rank 1, c1: the reverse

  // Waits up to `limit` for the connection (the acceptor gives up after it too).
  TransportPair(TransportPtr rank0, TransportPtr rank1, std::chrono::seconds limit = std::chrono::seconds(10));
  explicit TransportPair(TcpOptions opts = {}, uint64_t token0 = 7, uint64_t token1 = 7);
  TransportPair(TransportPair&&) = default;
  ~TransportPair();
};

inline WaitPolicy short_wait(int ms = 20000) { return WaitPolicy{std::chrono::microseconds(20), std::chrono::milliseconds(ms)}; }

void fill(char* p, size_t n, unsigned seed);
bool same(const char* p, size_t n, unsigned seed);
// Rank 1 sends `bytes` to rank 0, each side driven by its own thread; checks the data.
void send_recv(TransportPair& p, size_t bytes, uint32_t tag);

// A backend under the contract: how to build a connected pair of its transports, and
// what its error says when the peer closes.
struct ContractBackend {
  std::string name;
  std::function<std::unique_ptr<TransportPair>()> make_pair;
  std::string peer_close_says;
};
// Every clause below, each in its own section on a fresh pair. A backend's test file
// calls this once, so a clause added here runs on every backend.
void check_transport_contract(const ContractBackend& backend);

// The contract of transport.h, one function per clause.
void check_many_outstanding(TransportPair& p);
void check_small_passes_large(TransportPair& p);
void check_receives_after_sends(TransportPair& p);
void check_receive_larger_than_message(TransportPair& p);
void check_silent_peer_times_out(TransportPair& p);
void check_abort_wakes_waiter(TransportPair& p);
// Two pairs in one process, each driven by its own threads at once (several
// communicators per process, as --parallel's groups): every message intact.
void check_pairs_side_by_side(TransportPair& a, TransportPair& b);
// Closes rank 1 under a pending receive on rank 0; the error must contain `expected`.
void check_peer_close_fails_pending(TransportPair& p, const std::string& expected);

}  // namespace ccb::test
