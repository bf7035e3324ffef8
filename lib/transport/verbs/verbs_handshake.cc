#include "transport/verbs/verbs_handshake.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace ccb::verbs {

std::string handshake_status_text(HandshakeStatus s) {
  switch (s) {
    case HandshakeStatus::kOk: return "ok";
    case HandshakeStatus::kBadToken: return "job token mismatch (every rank needs the same CCB_TOKEN)";
    case HandshakeStatus::kWrongRank: return "it is not the rank we meant to reach (stale address in the store?)";
    case HandshakeStatus::kBadQps: return "--qps differs between ranks";
    case HandshakeStatus::kBadVersion: return "ccbench versions differ between ranks";
    case HandshakeStatus::kDuplicate: return "that rank is already connected (do two ranks share one CCB_RANK?)";
  }
  return "unknown status " + std::to_string(static_cast<int>(s));
}

HandshakeStatus check_hello(const Endpoint& e, const HandshakeExpect& want) {
  if (e.magic != kHelloMagic || e.version != kWireVersion) return HandshakeStatus::kBadVersion;
  if (e.token != want.token) return HandshakeStatus::kBadToken;
  if (e.to_rank != want.rank || e.from_rank < 0) return HandshakeStatus::kWrongRank;
  if (e.nqps != want.qps || e.nqps < 1 || e.nqps > kMaxQps) return HandshakeStatus::kBadQps;
  return HandshakeStatus::kOk;
}

AnswerVerdict check_answer(const Endpoint& answer, int peer, const HandshakeExpect& want) {
  if (answer.magic != kHelloMagic) return {HandshakeStatus::kOk, "the answer is not a ccbench verbs handshake"};
  if (answer.status > kLastHandshakeStatus)
    return {HandshakeStatus::kOk, "unknown handshake status " + std::to_string(answer.status)};
  auto st = static_cast<HandshakeStatus>(answer.status);
  if (st != HandshakeStatus::kOk) return {st, ""};  // a refusal carries nothing else
  if (check_hello(answer, want) != HandshakeStatus::kOk || answer.from_rank != peer)
    return {st, "the answer's version, token, ranks or QP count disagree with our hello"};
  return {st, ""};
}

RemoteQps remote_qps_of(const Endpoint& e) {
  RemoteQps remote;
  std::memcpy(remote.gid.raw, e.gid, sizeof e.gid);
  remote.lid = e.lid, remote.mtu = static_cast<ibv_mtu>(e.mtu), remote.psn = e.psn;
  remote.qpn.assign(e.qpn, e.qpn + std::min<size_t>(e.nqps, std::size(e.qpn)));
  return remote;
}

namespace {
template <class T>
std::optional<T> parse_prefix(const void* data, size_t len) {
  if (!data || len < sizeof(T)) return std::nullopt;
  T t;
  std::memcpy(&t, data, sizeof t);
  return t;
}
}  // namespace

std::optional<CmHello> parse_cm_hello(const void* data, size_t len) { return parse_prefix<CmHello>(data, len); }
std::optional<CmAnswer> parse_cm_answer(const void* data, size_t len) { return parse_prefix<CmAnswer>(data, len); }

HandshakeStatus check_cm_hello(const std::optional<CmHello>& hello, const HandshakeExpect& want) {
  if (!hello || hello->magic != kHelloMagic || hello->version != kWireVersion) return HandshakeStatus::kBadVersion;
  if (hello->token != want.token) return HandshakeStatus::kBadToken;
  if (hello->to_rank != want.rank || hello->from_rank < 0) return HandshakeStatus::kWrongRank;
  if (hello->nqps != want.qps || hello->qp_index >= hello->nqps) return HandshakeStatus::kBadQps;
  return HandshakeStatus::kOk;
}

}  // namespace ccb::verbs
