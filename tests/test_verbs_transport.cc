// The verbs transport in one process: two transports on the same RDMA device.
#include <catch2/catch.hpp>
#include <future>

#include "core/error.h"
#include "transport/verbs/verbs_transport.h"
#include "transport_pair.h"

using namespace ccb;
using namespace ccb::test;

namespace {

TransportPair verbs_pair(VerbsOptions o = {}, uint64_t token1 = 7, std::chrono::seconds limit = std::chrono::seconds(20)) {
  return TransportPair(std::make_unique<verbs::VerbsTransport>(0, 7, o), std::make_unique<verbs::VerbsTransport>(1, token1, o), limit);
}

VerbsOptions with(int qps, VerbsConnectMode cm = VerbsConnectMode::kNative,
                  VerbsCompletionMode completion = VerbsCompletionMode::kEvent) {
  VerbsOptions o;
  o.qps = qps, o.connect_mode = cm, o.completion = completion;
  return o;
}

}  // namespace

TEST_CASE("verbs: messages of 0 B to 64 MiB arrive intact over 1 to 4 QPs", "[verbs]") {
  for (int qps : {1, 2, 3, 4}) {
    TransportPair p = verbs_pair(with(qps));
    // 9 MiB and 64 MiB are past rxe's max_msg_sz (8 MiB): they need several WRs per part.
    for (size_t bytes : {size_t{0}, size_t{1}, size_t{127}, size_t{65537}, size_t{(1 << 20) + 3}, size_t{9 << 20}, size_t{64 << 20}}) {
      INFO("qps " << qps << " bytes " << bytes);
      send_recv(p, bytes, static_cast<uint32_t>(bytes % 1000));
    }
  }
}

TEST_CASE("verbs: rdma_cm connections carry data too", "[verbs]") {
  for (int qps : {1, 3}) {
    TransportPair p = verbs_pair(with(qps, VerbsConnectMode::kRdmaCm));
    CHECK_THAT(p.t0->describe(), Catch::Contains("cm=rdmacm"));
    for (size_t bytes : {size_t{0}, size_t{4097}, size_t{9 << 20}}) send_recv(p, bytes, 3);
  }
}

TEST_CASE("verbs: poll mode moves data", "[verbs]") {
  TransportPair p = verbs_pair(with(2, VerbsConnectMode::kNative, VerbsCompletionMode::kPoll));
  CHECK_THAT(p.t0->describe(), Catch::Contains("completion=poll"));
  send_recv(p, 3 << 20, 8);
}

TEST_CASE("verbs keeps the transport contract, with 1 and 2 QPs", "[verbs]") {
  for (int qps : {1, 2})
    check_transport_contract({"verbs qps=" + std::to_string(qps),
                              [qps] { return std::make_unique<TransportPair>(verbs_pair(with(qps))); },
                              "rank 1 closed its connection"});
}

TEST_CASE("verbs: a message larger than its receive is refused by the sender", "[verbs]") {
  TransportPair p = verbs_pair();
  RegisteredBuffer out(host_memory(), *p.t1, 1 << 20), in(host_memory(), *p.t0, 1 << 20);
  auto r = p.c0->irecv(in.region(), 0, 100, 3);
  auto s = p.c1->isend(out.region(), 0, 200000, 3);
  auto receiver = std::async(std::launch::async, [&] {
    for (int i = 0; i < 1000 && !r->test(); ++i) p.t0->wait_for_progress(std::chrono::milliseconds(1));
  });
  CHECK_THROWS_WITH(RequestWaiter(*p.t1, short_wait()).wait(*s),
                    Catch::Contains("larger than the receive of 100 B that rank 0 posted"));
  receiver.get();
}

TEST_CASE("verbs: the registration cache never registers a buffer twice", "[verbs]") {
  verbs::VerbsTransport t(0, 1, {});
  AlignedBuffer buf(1 << 20);
  auto a = t.register_memory(buf.data(), 1 << 20);
  auto b = t.register_memory(buf.data(), 1 << 20);
  auto inner = t.register_memory(buf.data() + 4096, 8192);
  CHECK(t.registrations() == 1);
  a.reset(), b.reset(), inner.reset();
  auto again = t.register_memory(buf.data(), 1 << 20);  // the last holder went: a fresh one
  CHECK(t.registrations() == 2);
  auto empty = t.register_memory(nullptr, 0);  // an empty vector's data() may be null
  CHECK(empty->size() == 0);
}

TEST_CASE("verbs: the GID is chosen like perftest and reported", "[verbs]") {
  verbs::VerbsTransport t(0, 1, {});
  INFO(t.describe());
  CHECK(t.port().gid_type == "RoCE v2");
  CHECK_THAT(t.describe(), Catch::Contains("::ffff:") && Catch::Contains("mtu="));
}

TEST_CASE("verbs: bad devices, GID indices and options are refused in one line", "[verbs]") {
  VerbsOptions o;
  o.gid_index = 77;
  CHECK_THROWS_WITH(verbs::VerbsTransport(0, 1, o), Catch::Contains("GID index 77") && Catch::Contains("valid:"));
  o = {};
  o.device = "mlx5_9";
  CHECK_THROWS_WITH(verbs::VerbsTransport(0, 1, o), Catch::Contains("no RDMA device 'mlx5_9'"));
  o = {};
  o.port = 2;
  CHECK_THROWS_WITH(verbs::VerbsTransport(0, 1, o), Catch::Contains("active port 2 (rxe0)"));
  o = {};
  o.qps = 16;
  CHECK_THROWS_WITH(verbs::VerbsTransport(0, 1, o), Catch::Contains("--qps"));
}

TEST_CASE("verbs: a wrong job token or QP count is refused at connect", "[verbs]") {
  const auto limit = std::chrono::seconds(2);
  CHECK_THROWS_WITH(verbs_pair({}, 8, limit), Catch::Contains("job token mismatch"));
  auto mismatch = [&](VerbsConnectMode cm) {
    return TransportPair(std::make_unique<verbs::VerbsTransport>(0, 7, with(1, cm)),
                         std::make_unique<verbs::VerbsTransport>(1, 7, with(2, cm)), limit);
  };
  CHECK_THROWS_WITH(mismatch(VerbsConnectMode::kNative), Catch::Contains("--qps differs"));
  CHECK_THROWS_WITH(mismatch(VerbsConnectMode::kRdmaCm), Catch::Contains("refused") && Catch::Contains("--qps differs"));
  CHECK_THROWS_WITH(verbs_pair(with(1, VerbsConnectMode::kRdmaCm), 8, limit), Catch::Contains("job token mismatch"));
}

TEST_CASE("verbs: a peer with a wrong rkey or tag gets a clear error, not corruption", "[verbs]") {
  for (VerbsFault fault : {VerbsFault::kBadRkey, VerbsFault::kBadTag}) {
    VerbsOptions rogue;
    rogue.fault = fault;
    TransportPair p(std::make_unique<verbs::VerbsTransport>(0, 7, VerbsOptions{}), std::make_unique<verbs::VerbsTransport>(1, 7, rogue));
    RegisteredBuffer out(host_memory(), *p.t1, 1 << 20), in(host_memory(), *p.t0, 2 << 20);
    fill(in.data() + (1 << 20), 1 << 20, 5);  // memory next to the receive must stay untouched
    auto r = p.c0->irecv(in.region(), 0, 1 << 20, 4);
    auto s = p.c1->isend(out.region(), 0, 1 << 20, 4);
    std::string sender_error, receiver_error;
    auto sender = std::async(std::launch::async, [&] {
      try {
        RequestWaiter(*p.t1, short_wait(5000)).wait(*s);
      } catch (const Error& e) {
        sender_error = e.what();
      }
    });
    try {
      RequestWaiter(*p.t0, short_wait(5000)).wait(*r);
    } catch (const Error& e) {
      receiver_error = e.what();
    }
    sender.get();
    INFO("sender: " << sender_error << "\nreceiver: " << receiver_error);
    if (fault == VerbsFault::kBadRkey) CHECK_THAT(sender_error, Catch::Contains("rkey"));
    else CHECK_THAT(receiver_error, Catch::Contains("rank 1 wrote tag 5 into the receive posted for tag 4"));
    CHECK(same(in.data() + (1 << 20), 1 << 20, 5));
  }
}
