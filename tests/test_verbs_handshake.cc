// The verbs handshake's checks (verbs_handshake.h) need no device: they are what stands
// between a stranger's bytes and the QP setup.
#include <catch2/catch.hpp>

#include <cstring>

#include "transport/verbs/verbs_handshake.h"

using namespace ccb::verbs;

namespace {

constexpr HandshakeExpect kMe{2, 0xabcdULL, 3};

Endpoint hello_to_me() {
  Endpoint e{};
  e.magic = kHelloMagic, e.version = kWireVersion, e.nqps = 3;
  e.from_rank = 1, e.to_rank = 2, e.token = 0xabcd;
  for (uint32_t i = 0; i < 3; ++i) e.qpn[i] = 100 + i;
  return e;
}

Endpoint answer_from(int acceptor) {
  Endpoint e = hello_to_me();
  e.from_rank = acceptor;
  return e;
}

}  // namespace

TEST_CASE("verbs hello: a well-formed hello is accepted and its QPs read back", "[verbs_handshake]") {
  Endpoint e = hello_to_me();
  REQUIRE(check_hello(e, kMe) == HandshakeStatus::kOk);
  RemoteQps r = remote_qps_of(e);
  REQUIRE(r.qpn == std::vector<uint32_t>{100, 101, 102});
}

TEST_CASE("verbs hello: each wrong field has its own refusal", "[verbs_handshake]") {
  Endpoint e = hello_to_me();
  SECTION("magic") { e.magic ^= 1; REQUIRE(check_hello(e, kMe) == HandshakeStatus::kBadVersion); }
  SECTION("version") { e.version = kWireVersion + 1; REQUIRE(check_hello(e, kMe) == HandshakeStatus::kBadVersion); }
  SECTION("token") { e.token = 1; REQUIRE(check_hello(e, kMe) == HandshakeStatus::kBadToken); }
  SECTION("addressed to another rank") { e.to_rank = 7; REQUIRE(check_hello(e, kMe) == HandshakeStatus::kWrongRank); }
  SECTION("negative sender") { e.from_rank = -1; REQUIRE(check_hello(e, kMe) == HandshakeStatus::kWrongRank); }
  SECTION("QP count") { e.nqps = 2; REQUIRE(check_hello(e, kMe) == HandshakeStatus::kBadQps); }
  SECTION("QP count past the array") {
    e.nqps = 60000;
    REQUIRE(check_hello(e, {2, 0xabcd, 60000}) == HandshakeStatus::kBadQps);
    REQUIRE(remote_qps_of(e).qpn.size() == 16);
  }
}

TEST_CASE("verbs answer: refusals carry the acceptor's reason; rogue answers are protocol errors", "[verbs_handshake]") {
  REQUIRE(check_answer(answer_from(5), 5, kMe).protocol_error.empty());
  REQUIRE(check_answer(answer_from(5), 5, kMe).status == HandshakeStatus::kOk);

  Endpoint refusal{};
  refusal.magic = kHelloMagic, refusal.status = static_cast<uint8_t>(HandshakeStatus::kBadToken);
  AnswerVerdict v = check_answer(refusal, 5, kMe);
  REQUIRE(v.protocol_error.empty());
  REQUIRE(v.status == HandshakeStatus::kBadToken);
  REQUIRE_THAT(handshake_status_text(v.status), Catch::Contains("CCB_TOKEN"));

  Endpoint wrong_qps = answer_from(5);
  wrong_qps.nqps = 200;  // would have read qpn[] far past its 16 entries
  REQUIRE_FALSE(check_answer(wrong_qps, 5, kMe).protocol_error.empty());
  REQUIRE_FALSE(check_answer(answer_from(6), 5, kMe).protocol_error.empty());
  Endpoint odd_status = answer_from(5);
  odd_status.status = 99;
  REQUIRE_THAT(check_answer(odd_status, 5, kMe).protocol_error, Catch::Contains("99"));
  Endpoint stranger{};
  REQUIRE_FALSE(check_answer(stranger, 5, kMe).protocol_error.empty());
}

TEST_CASE("rdma_cm private data: short or foreign data is refused, qp_index is bounded", "[verbs_handshake]") {
  CmHello h{kHelloMagic, kWireVersion, 1, 3, 1, 2, 0xabcd, 0, 0, 0};
  REQUIRE(check_cm_hello(parse_cm_hello(&h, sizeof h), kMe) == HandshakeStatus::kOk);
  REQUIRE(check_cm_hello(parse_cm_hello(&h, sizeof h - 1), kMe) == HandshakeStatus::kBadVersion);
  REQUIRE(check_cm_hello(parse_cm_hello(nullptr, 56), kMe) == HandshakeStatus::kBadVersion);
  h.qp_index = 3;
  REQUIRE(check_cm_hello(parse_cm_hello(&h, sizeof h), kMe) == HandshakeStatus::kBadQps);
  CmAnswer a{kHelloMagic, 1, 0, 0, 0};
  REQUIRE(parse_cm_answer(&a, sizeof a - 1) == std::nullopt);
  REQUIRE(parse_cm_answer(&a, sizeof a)->status == 1);
  REQUIRE_THAT(handshake_status_text(static_cast<HandshakeStatus>(77)), Catch::Contains("77"));
}
