// The checks on what a peer says while a verbs connection is made, as pure functions:
// a hostile or confused peer's bytes go through these and nothing else, so
// fuzz/fuzz_verbs_handshake can feed them anything without an RDMA device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "transport/verbs/verbs_qp.h"
#include "transport/verbs/verbs_wire.h"

namespace ccb::verbs {

// What this side expects of every peer.
struct HandshakeExpect {
  int rank = -1;    // ours: a hello must be addressed to it
  uint64_t token = 0;
  int qps = 1;      // --qps, which both sides must agree on
};

// "job token mismatch (...)", for both sides of a refused handshake.
std::string handshake_status_text(HandshakeStatus s);

// Native handshake, acceptor side: may the connector's Endpoint be served?
HandshakeStatus check_hello(const Endpoint& e, const HandshakeExpect& want);

// Native handshake, connector side: the acceptor's answer to our hello to `peer`.
// Refusals carry the acceptor's reason; anything inconsistent is a protocol error.
struct AnswerVerdict {
  HandshakeStatus status = HandshakeStatus::kOk;  // the acceptor's own verdict
  std::string protocol_error;                     // non-empty: the answer is malformed
};
AnswerVerdict check_answer(const Endpoint& answer, int peer, const HandshakeExpect& want);

// Where the peer's QPs are, from an Endpoint that passed check_hello or check_answer.
// Never reads past qpn[], whatever nqps says.
RemoteQps remote_qps_of(const Endpoint& e);

// rdma_cm: the private data of a connect request (the peer chose its length), and of
// an answer (ESTABLISHED or REJECTED). nullopt when it is too short to be ours.
std::optional<CmHello> parse_cm_hello(const void* data, size_t len);
std::optional<CmAnswer> parse_cm_answer(const void* data, size_t len);
HandshakeStatus check_cm_hello(const std::optional<CmHello>& hello, const HandshakeExpect& want);

}  // namespace ccb::verbs
