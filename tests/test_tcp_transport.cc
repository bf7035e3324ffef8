#include <catch2/catch.hpp>
#include <future>
#include <numeric>
#include <random>
#include <thread>

#include "core/error.h"
#include "transport/tcp/tcp_transport.h"
#include "transport_pair.h"

using namespace ccb;
using namespace ccb::test;

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

TEST_CASE("TCP keeps the transport contract, with 1 and 3 streams", "[tcp]") {
  for (int streams : {1, 3}) {
    TcpOptions o;
    o.streams = streams;
    check_transport_contract({"tcp streams=" + std::to_string(streams), [o] { return std::make_unique<TransportPair>(o); },
                              "connection to rank 1 lost"});
  }
}

TEST_CASE("a message larger than its receive is an error, not an overflow", "[tcp]") {
  TransportPair p;
  RegisteredBuffer out(host_memory(), *p.t1, 1 << 20), in(host_memory(), *p.t0, 1 << 20);
  auto r = p.c0->irecv(in.region(), 0, 100, 3);
  auto s = p.c1->isend(out.region(), 0, 200000, 3);
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

TEST_CASE("the congestion control is chosen with --tcp-cc and always reported", "[tcp]") {
  TcpOptions reno;
  reno.congestion_control = "reno";  // built into every kernel
  TransportPair p(reno);
  CHECK_THAT(p.t0->describe(), Catch::Contains(" cc=reno"));
  send_recv(p, 1 << 20, 3);
  tcp::TcpTransport system_default(0, 0, TcpOptions{});
  CHECK_THAT(system_default.describe(), Catch::Contains(" cc=" + default_congestion_control()));
  TcpOptions bogus;
  bogus.congestion_control = "nosuchcc";
  CHECK_THROWS_WITH(tcp::TcpTransport(0, 0, bogus), Catch::Contains("--tcp-cc nosuchcc") &&
                                                        Catch::Contains("tcp_available_congestion_control"));
}

TEST_CASE("IPv6 loopback works", "[tcp]") {
  TcpOptions o;
  o.address = "::1";
  TransportPair p(o);
  CHECK_THAT(p.t0->listen_address(), Catch::StartsWith("::1 "));
  send_recv(p, 100000, 4);
}
