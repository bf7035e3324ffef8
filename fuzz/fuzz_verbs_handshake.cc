// libFuzzer target: what a verbs peer says while a connection is made, with no RDMA
// device needed. The first byte picks the message:
//   0  a native hello (Endpoint) reaching an acceptor,
//   1  a native answer (Endpoint) reaching a connector,
//   2  rdma_cm connect-request private data (any length the peer chose),
//   3  rdma_cm answer private data.
// Whatever the verdict, nothing may read out of bounds, and an accepted message must
// satisfy what the code after the check relies on.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "transport/verbs/verbs_handshake.h"

namespace {

using namespace ccb::verbs;

constexpr HandshakeExpect kWant{3, 0xfeedULL, 2};

Endpoint endpoint_from(const uint8_t* data, size_t size) {
  Endpoint e{};
  std::memcpy(&e, data, std::min(size, sizeof e));
  return e;
}

void require(bool ok) {
  if (!ok) __builtin_trap();
}

void native_hello(const uint8_t* data, size_t size) {
  Endpoint e = endpoint_from(data, size);
  HandshakeStatus st = check_hello(e, kWant);
  (void)handshake_status_text(st);
  if (st != HandshakeStatus::kOk) return;
  require(e.nqps == kWant.qps && e.to_rank == kWant.rank && e.from_rank >= 0);
  require(remote_qps_of(e).qpn.size() == static_cast<size_t>(kWant.qps));
}

void native_answer(const uint8_t* data, size_t size) {
  Endpoint e = endpoint_from(data, size);
  AnswerVerdict v = check_answer(e, 5, kWant);
  (void)handshake_status_text(v.status);
  if (!v.protocol_error.empty() || v.status != HandshakeStatus::kOk) return;
  require(e.from_rank == 5 && e.nqps == kWant.qps);
  require(remote_qps_of(e).qpn.size() == static_cast<size_t>(kWant.qps));
}

void cm_hello(const uint8_t* data, size_t size) {
  auto hello = parse_cm_hello(size ? data : nullptr, size);
  HandshakeStatus st = check_cm_hello(hello, kWant);
  if (st != HandshakeStatus::kOk) return;
  require(hello && hello->qp_index < hello->nqps && hello->nqps == kWant.qps && hello->from_rank >= 0);
}

void cm_answer(const uint8_t* data, size_t size) {
  auto answer = parse_cm_answer(size ? data : nullptr, size);
  if (answer) (void)handshake_status_text(static_cast<HandshakeStatus>(answer->status));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  // An exact-size heap copy, so that ASan sees any read past what the peer sent.
  const size_t n = size - 1;
  auto* body = new uint8_t[n ? n : 1];
  std::memcpy(body, data + 1, n);
  switch (data[0] % 4) {
    case 0: native_hello(body, n); break;
    case 1: native_answer(body, n); break;
    case 2: cm_hello(body, n); break;
    default: cm_answer(body, n); break;
  }
  delete[] body;
  return 0;
}
