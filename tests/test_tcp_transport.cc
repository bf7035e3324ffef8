#include <catch2/catch.hpp>
#include <future>
#include <numeric>
#include <random>
#include <thread>

#include "core/error.h"
#include "transport_pair.h"

using namespace ccb;
using namespace ccb::test;

namespace {

void fill(char* p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>((i * 131 + seed * 7) & 0xff);
}

bool same(const char* p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != static_cast<char>((i * 131 + seed * 7) & 0xff)) return false;
  return true;
}

// Rank 1 sends `bytes` to rank 0, each side driven by its own thread.
void send_recv(TransportPair& p, size_t bytes, uint32_t tag) {
  RegisteredBuffer out(*p.t1, bytes + 1), in(*p.t0, bytes + 1);
  fill(out.data(), bytes, tag);
  auto sender = std::async(std::launch::async, [&] {
    auto r = p.c1->isend(*out.region, 0, bytes, tag);
    RequestWaiter(*p.t1, short_wait()).wait(*r);
  });
  auto r = p.c0->irecv(*in.region, 0, bytes, tag);
  RequestWaiter(*p.t0, short_wait()).wait(*r);
  sender.get();
  CHECK(r->bytes() == bytes);
  CHECK(same(in.data(), bytes, tag));
}

}  // namespace

TEST_CASE("messages of 0 B to 64 MiB arrive intact", "[tcp]") {
  for (int streams : {1, 3}) {
    TcpOptions o;
    o.streams = streams;
    TransportPair p(o);
    for (size_t bytes : {size_t{0}, size_t{1}, size_t{7}, size_t{65535}, size_t{65536}, size_t{65537},
                         size_t{(1 << 20) + 3}, size_t{8 << 20}, size_t{64 << 20}}) {
      INFO("streams " << streams << " bytes " << bytes);
      send_recv(p, bytes, static_cast<uint32_t>(bytes % 1000));
    }
  }
}

TEST_CASE("many outstanding messages match by tag, in order per tag", "[tcp]") {
  TransportPair p;
  const int kMessages = 600;
  std::vector<size_t> sizes(kMessages);
  std::mt19937 rng(3);
  for (auto& s : sizes) s = rng() % 3 == 0 ? (rng() % (300 << 10)) : rng() % 5000;
  size_t total = std::accumulate(sizes.begin(), sizes.end(), size_t{0});
  RegisteredBuffer out(*p.t1, total + 1), in(*p.t0, total + 1);
  std::vector<size_t> offset(kMessages);
  std::exclusive_scan(sizes.begin(), sizes.end(), offset.begin(), size_t{0});
  for (int i = 0; i < kMessages; ++i) fill(out.data() + offset[i], sizes[i], i);
  auto tag_of = [](int i) { return static_cast<uint32_t>(i % 5); };

  // The receiver posts tag by tag (4, 3, ... 0), not in the order sent.
  std::vector<RequestPtr> recvs(kMessages);
  for (uint32_t tag = 5; tag-- > 0;)
    for (int i = 0; i < kMessages; ++i)
      if (tag_of(i) == tag) recvs[i] = p.c0->irecv(*in.region, offset[i], sizes[i], tag);
  auto sender = std::async(std::launch::async, [&] {
    std::vector<RequestPtr> sends;
    for (int i = 0; i < kMessages; ++i) sends.push_back(p.c1->isend(*out.region, offset[i], sizes[i], tag_of(i)));
    RequestWaiter(*p.t1, short_wait()).wait_all(sends);
  });
  RequestWaiter(*p.t0, short_wait()).wait_all(recvs);
  sender.get();
  for (int i = 0; i < kMessages; ++i) REQUIRE(same(in.data() + offset[i], sizes[i], i));
}

TEST_CASE("a small message completes while a large one on another tag is pending", "[tcp]") {
  TransportPair p;
  RegisteredBuffer out(*p.t1, 32 << 20), in(*p.t0, 32 << 20);
  auto big = p.c0->irecv(*in.region, 0, 16 << 20, 1);
  auto small = p.c0->irecv(*in.region, 16 << 20, 100, 2);
  auto s_small = p.c1->isend(*out.region, 16 << 20, 100, 2);
  RequestWaiter w0(*p.t0, short_wait()), w1(*p.t1, short_wait());
  w1.wait(*s_small);
  w0.wait(*small);
  CHECK_FALSE(big->test());  // nothing was sent on tag 1 yet
  auto s_big = p.c1->isend(*out.region, 0, 16 << 20, 1);
  auto sender = std::async(std::launch::async, [&] { w1.wait(*s_big); });
  w0.wait(*big);
  sender.get();
}

TEST_CASE("receives posted after their sends: small are buffered, large wait in the socket", "[tcp]") {
  TransportPair p;
  RegisteredBuffer out(*p.t1, 4 << 20), in(*p.t0, 4 << 20);
  fill(out.data(), 4 << 20, 9);
  auto s1 = p.c1->isend(*out.region, 0, 1000, 5);
  auto s2 = p.c1->isend(*out.region, 0, 4 << 20, 5);
  RequestWaiter w0(*p.t0, short_wait()), w1(*p.t1, short_wait());
  w1.wait(*s1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (int i = 0; i < 20; ++i) s2->test();  // pushes what the socket takes
  auto r1 = p.c0->irecv(*in.region, 0, 1000, 5);
  w0.wait(*r1);
  CHECK(same(in.data(), 1000, 9));
  auto r2 = p.c0->irecv(*in.region, 0, 4 << 20, 5);
  auto sender = std::async(std::launch::async, [&] { w1.wait(*s2); });
  w0.wait(*r2);
  sender.get();
  CHECK(same(in.data(), 4 << 20, 9));
}

TEST_CASE("a receive larger than the message reports the size that arrived", "[tcp]") {
  TransportPair p;
  RegisteredBuffer out(*p.t1, 1 << 20), in(*p.t0, 1 << 20);
  auto r = p.c0->irecv(*in.region, 0, 1 << 20, 3);
  auto s = p.c1->isend(*out.region, 0, 12345, 3);
  RequestWaiter(*p.t1, short_wait()).wait(*s);
  RequestWaiter(*p.t0, short_wait()).wait(*r);
  CHECK(r->bytes() == 12345);
}

TEST_CASE("a message larger than its receive is an error, not an overflow", "[tcp]") {
  TransportPair p;
  RegisteredBuffer out(*p.t1, 1 << 20), in(*p.t0, 1 << 20);
  auto r = p.c0->irecv(*in.region, 0, 100, 3);
  auto s = p.c1->isend(*out.region, 0, 200000, 3);
  auto sender = std::async(std::launch::async, [&] {
    try {
      RequestWaiter(*p.t1, short_wait(2000)).wait(*s);
    } catch (const Error&) {
    }
  });
  CHECK_THROWS_WITH(RequestWaiter(*p.t0, short_wait()).wait(*r), Catch::Contains("larger than the receive"));
  p.c0.reset();
  sender.get();
}

TEST_CASE("a peer that closes fails pending requests, naming it", "[tcp]") {
  TransportPair p;
  RegisteredBuffer in(*p.t0, 4096);
  auto r = p.c0->irecv(*in.region, 0, 4096, 1);
  p.c1.reset();
  p.t1.reset();
  CHECK_THROWS_WITH(RequestWaiter(*p.t0, short_wait()).wait(*r),
                    Catch::Contains("rank 0") && Catch::Contains("connection to rank 1 lost"));
}

TEST_CASE("a silent peer times out with the request named", "[tcp]") {
  TransportPair p;
  RegisteredBuffer in(*p.t0, 64);
  auto r = p.c0->irecv(*in.region, 0, 64, 11);
  CHECK_THROWS_WITH(RequestWaiter(*p.t0, short_wait(200)).wait(*r),
                    Catch::Contains("recv from rank 1") && Catch::Contains("tag 11") && Catch::Contains("did not complete"));
}

TEST_CASE("abort wakes a waiter", "[tcp]") {
  TransportPair p;
  RegisteredBuffer in(*p.t0, 64);
  auto r = p.c0->irecv(*in.region, 0, 64, 1);
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    p.t0->abort("test says stop");
  });
  CHECK_THROWS_WITH(RequestWaiter(*p.t0, short_wait()).wait(*r), Catch::Contains("test says stop"));
  killer.join();
}

TEST_CASE("a wrong job token is refused at connect", "[tcp]") {
  CHECK_THROWS_WITH(TransportPair({}, 1, 2), Catch::Contains("job token mismatch"));
}

TEST_CASE("stream counts must agree", "[tcp]") {
  TcpOptions one;
  one.streams = 1;
  auto t0 = std::make_unique<tcp::TcpTransport>(0, 1, one);
  TcpOptions two;
  two.streams = 2;
  tcp::TcpTransport t1(1, 1, two);
  auto deadline = Clock::now() + std::chrono::seconds(3);
  auto acceptor = std::async(std::launch::async, [&] {
    try {
      t0->accept(1, deadline);
    } catch (const Error&) {
    }
  });
  CHECK_THROWS_WITH(t1.connect(0, t0->listen_address(), deadline), Catch::Contains("--tcp-streams differs"));
  acceptor.get();
}

TEST_CASE("bad interface names and stream counts are refused", "[tcp]") {
  TcpOptions o;
  o.iface = "nosuchif0";
  CHECK_THROWS_WITH(tcp::TcpTransport(0, 0, o), Catch::Contains("no network interface named 'nosuchif0'"));
  TcpOptions lo;
  lo.iface = "lo";
  tcp::TcpTransport t(0, 0, lo);
  CHECK_THAT(t.listen_address(), Catch::StartsWith("127.0.0.1 "));
  TcpOptions zero;
  zero.streams = 0;
  CHECK_THROWS_WITH(tcp::TcpTransport(0, 0, zero), Catch::Contains("--tcp-streams"));
}

TEST_CASE("IPv6 loopback works", "[tcp]") {
  TcpOptions o;
  o.address = "::1";
  TransportPair p(o);
  CHECK_THAT(p.t0->listen_address(), Catch::StartsWith("::1 "));
  send_recv(p, 100000, 4);
}
