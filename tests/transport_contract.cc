// The transport contract (transport.h), written once and run against every backend.
#include <catch2/catch.hpp>
#include <future>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "core/error.h"
#include "transport_pair.h"

namespace ccb::test {

// Catch's assertions are not thread-safe, so this reports and the caller's thread asserts.
bool arrived_intact(TransportPair& p, size_t bytes, uint32_t tag) {
  RegisteredBuffer out(host_memory(), *p.t1, bytes + 1), in(host_memory(), *p.t0, bytes + 1);
  fill(out.data(), bytes, tag);
  auto sender = std::async(std::launch::async, [&] {
    auto r = p.c1->isend(out.region(), 0, bytes, tag);
    RequestWaiter(*p.t1, short_wait()).wait(*r);
  });
  auto r = p.c0->irecv(in.region(), 0, bytes, tag);
  RequestWaiter(*p.t0, short_wait()).wait(*r);
  sender.get();
  return r->bytes() == bytes && same(in.data(), bytes, tag);
}

void send_recv(TransportPair& p, size_t bytes, uint32_t tag) {
  INFO(bytes << " B on tag " << tag);
  CHECK(arrived_intact(p, bytes, tag));
}

void check_many_outstanding(TransportPair& p) {
  const int kMessages = 600;
  std::vector<size_t> sizes(kMessages);
  std::mt19937 rng(3);
  for (auto& s : sizes) s = rng() % 3 == 0 ? (rng() % (300 << 10)) : rng() % 5000;
  size_t total = std::accumulate(sizes.begin(), sizes.end(), size_t{0});
  RegisteredBuffer out(host_memory(), *p.t1, total + 1), in(host_memory(), *p.t0, total + 1);
  std::vector<size_t> offset(kMessages);
  std::exclusive_scan(sizes.begin(), sizes.end(), offset.begin(), size_t{0});
  for (int i = 0; i < kMessages; ++i) fill(out.data() + offset[i], sizes[i], i);
  auto tag_of = [](int i) { return static_cast<uint32_t>(i % 5); };

  // The receiver posts tag by tag (4, 3, ... 0), not in the order sent.
  std::vector<RequestPtr> recvs(kMessages);
  for (uint32_t tag = 5; tag-- > 0;)
    for (int i = 0; i < kMessages; ++i)
      if (tag_of(i) == tag) recvs[i] = p.c0->irecv(in.region(), offset[i], sizes[i], tag);
  auto sender = std::async(std::launch::async, [&] {
    std::vector<RequestPtr> sends;
    for (int i = 0; i < kMessages; ++i) sends.push_back(p.c1->isend(out.region(), offset[i], sizes[i], tag_of(i)));
    RequestWaiter(*p.t1, short_wait()).wait_all(sends);
  });
  RequestWaiter(*p.t0, short_wait()).wait_all(recvs);
  sender.get();
  for (int i = 0; i < kMessages; ++i) REQUIRE(same(in.data() + offset[i], sizes[i], i));
}

void check_small_passes_large(TransportPair& p) {
  RegisteredBuffer out(host_memory(), *p.t1, 32 << 20), in(host_memory(), *p.t0, 32 << 20);
  auto big = p.c0->irecv(in.region(), 0, 16 << 20, 1);
  auto small = p.c0->irecv(in.region(), 16 << 20, 100, 2);
  auto s_small = p.c1->isend(out.region(), 16 << 20, 100, 2);
  RequestWaiter w0(*p.t0, short_wait()), w1(*p.t1, short_wait());
  w1.wait(*s_small);
  w0.wait(*small);
  CHECK_FALSE(big->test());  // nothing was sent on tag 1 yet
  auto s_big = p.c1->isend(out.region(), 0, 16 << 20, 1);
  auto sender = std::async(std::launch::async, [&] { w1.wait(*s_big); });
  w0.wait(*big);
  sender.get();
}

void check_receives_after_sends(TransportPair& p) {
  RegisteredBuffer out(host_memory(), *p.t1, 4 << 20), in(host_memory(), *p.t0, 4 << 20);
  fill(out.data(), 4 << 20, 9);
  auto s1 = p.c1->isend(out.region(), 0, 1000, 5);
  auto s2 = p.c1->isend(out.region(), 0, 4 << 20, 5);
  RequestWaiter w0(*p.t0, short_wait()), w1(*p.t1, short_wait());
  for (int i = 0; i < 20; ++i) s1->test(), s2->test();  // moves what can move without receives
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto sender = std::async(std::launch::async, [&] {
    w1.wait(*s1);
    w1.wait(*s2);
  });
  auto r1 = p.c0->irecv(in.region(), 0, 1000, 5);
  w0.wait(*r1);
  CHECK(same(in.data(), 1000, 9));
  auto r2 = p.c0->irecv(in.region(), 0, 4 << 20, 5);
  w0.wait(*r2);
  sender.get();
  CHECK(same(in.data(), 4 << 20, 9));
}

void check_receive_larger_than_message(TransportPair& p) {
  RegisteredBuffer out(host_memory(), *p.t1, 1 << 20), in(host_memory(), *p.t0, 1 << 20);
  auto r = p.c0->irecv(in.region(), 0, 1 << 20, 3);
  auto s = p.c1->isend(out.region(), 0, 12345, 3);
  RequestWaiter(*p.t1, short_wait()).wait(*s);
  RequestWaiter(*p.t0, short_wait()).wait(*r);
  CHECK(r->bytes() == 12345);
}

void check_peer_close_fails_pending(TransportPair& p, const std::string& expected) {
  RegisteredBuffer in(host_memory(), *p.t0, 4096);
  auto r = p.c0->irecv(in.region(), 0, 4096, 1);
  p.c1.reset();
  p.t1.reset();
  CHECK_THROWS_WITH(RequestWaiter(*p.t0, short_wait()).wait(*r),
                    Catch::Contains("rank 0") && Catch::Contains(expected));
}

void check_silent_peer_times_out(TransportPair& p) {
  RegisteredBuffer in(host_memory(), *p.t0, 64);
  auto r = p.c0->irecv(in.region(), 0, 64, 11);
  CHECK_THROWS_WITH(RequestWaiter(*p.t0, short_wait(200)).wait(*r),
                    Catch::Contains("recv from rank 1") && Catch::Contains("tag 11") && Catch::Contains("did not complete"));
}

void check_abort_wakes_waiter(TransportPair& p) {
  RegisteredBuffer in(host_memory(), *p.t0, 64);
  auto r = p.c0->irecv(in.region(), 0, 64, 1);
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    p.t0->abort("test says stop");
  });
  CHECK_THROWS_WITH(RequestWaiter(*p.t0, short_wait()).wait(*r), Catch::Contains("test says stop"));
  killer.join();
}

void check_pairs_side_by_side(TransportPair& a, TransportPair& b) {
  constexpr size_t kBytes = 8 << 20;
  constexpr int kRounds = 4;
  // Each pair on its own thread (its two transports each driven by one more), as
  // --parallel runs a rank's groups.
  auto drive = [](TransportPair& p, unsigned seed) {
    int intact = 0;
    for (int round = 0; round < kRounds; ++round) intact += arrived_intact(p, kBytes, seed + static_cast<unsigned>(round) * 2);
    return intact;
  };
  auto first = std::async(std::launch::async, drive, std::ref(a), 1u);
  auto second = std::async(std::launch::async, drive, std::ref(b), 2u);
  CHECK(first.get() == kRounds);
  CHECK(second.get() == kRounds);
}

void check_transport_contract(const ContractBackend& b) {
  using Clause = std::function<void()>;
  auto on_pair = [&b](void (*check)(TransportPair&)) -> Clause { return [&b, check] { check(*b.make_pair()); }; };
  const std::vector<std::pair<std::string, Clause>> clauses{
      {"messages of 0 B to 9 MiB arrive intact",
       [&b] {
         auto p = b.make_pair();
         for (size_t bytes : {size_t{0}, size_t{1}, size_t{7}, size_t{65536}, size_t{65537}, size_t{(1 << 20) + 3}, size_t{9} << 20})
           send_recv(*p, bytes, static_cast<uint32_t>(bytes % 1000));
       }},
      {"many outstanding messages match by tag, in order per tag", on_pair(check_many_outstanding)},
      {"a small message completes while a large one on another tag is pending", on_pair(check_small_passes_large)},
      {"receives posted after their sends", on_pair(check_receives_after_sends)},
      {"a receive larger than the message reports the size that arrived", on_pair(check_receive_larger_than_message)},
      {"a peer that closes fails pending requests, naming it",
       [&b] { check_peer_close_fails_pending(*b.make_pair(), b.peer_close_says); }},
      {"a silent peer times out with the request named", on_pair(check_silent_peer_times_out)},
      {"abort wakes a waiter", on_pair(check_abort_wakes_waiter)},
      {"two pairs in one process run side by side",
       [&b] {
         auto first = b.make_pair(), second = b.make_pair();
         check_pairs_side_by_side(*first, *second);
       }},
  };
  for (const auto& [name, clause] : clauses) DYNAMIC_SECTION(b.name << ": " << name) { clause(); }
}

}  // namespace ccb::test
