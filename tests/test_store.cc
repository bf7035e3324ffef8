// The rendezvous store over real sockets: what ranks do with it, and what strangers
// cannot do to it (stall it, make it allocate, join it).
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <thread>

#include "bootstrap/frame.h"
#include "bootstrap/local_launcher.h"
#include "bootstrap/store_bootstrap.h"
#include "bootstrap/store_client.h"
#include "bootstrap/store_server.h"
#include "core/error.h"

using namespace ccb;
using namespace ccb::bootstrap;
using namespace std::chrono_literals;

namespace {

SockAddr free_local() { return resolve_host("127.0.0.1", pick_free_port("127.0.0.1")); }
StoreHello hello(int rank, uint64_t token = 42) { return {token, rank, "", {}}; }

// A connection that says `bytes` and then nothing.
Fd stranger(const SockAddr& addr, const std::string& bytes) {
  Fd fd = connect_to(addr, Clock::now() + 5s, true);
  if (!bytes.empty()) write_exact(fd.get(), bytes.data(), bytes.size(), Clock::now() + 5s);
  return fd;
}

// True once the peer has closed the connection (within `limit`).
bool closed_by_peer(int fd, std::chrono::milliseconds limit) {
  char b;
  for (auto until = Clock::now() + limit; Clock::now() < until;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) > 0 && ::recv(fd, &b, 1, MSG_DONTWAIT) == 0) return true;
  }
  return false;
}

bool still_open(int fd) {
  char b;
  return ::recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

}  // namespace

TEST_CASE("frame headers are checked before any payload is read", "[store]") {
  CHECK(check_header({kFrameMagic, kFrameVersion, 2, 10}).empty());
  CHECK_THAT(check_header({0xdeadbeef, kFrameVersion, 2, 10}), Catch::Contains("magic"));
  CHECK_THAT(check_header({kFrameMagic, 9, 2, 10}), Catch::Contains("version"));
  CHECK_THAT(check_header({kFrameMagic, kFrameVersion, 99, 10}), Catch::Contains("type"));
  CHECK_THAT(check_header({kFrameMagic, kFrameVersion, 2, kMaxFramePayload + 1}), Catch::Contains("limit"));
  CHECK_THAT(check_header({kFrameMagic, kFrameVersion, 1, kMaxHelloPayload + 1}, kMaxHelloPayload),
             Catch::Contains("limit"));
}

TEST_CASE("the frame reader takes frames byte by byte, and a stranger's big header at once", "[store]") {
  std::string two = encode_frame(FrameType::kGet, "key") + encode_frame(FrameType::kSet, std::string("k\0v", 3));
  FrameReader r(kMaxHelloPayload);
  std::vector<Frame> got;
  for (char c : two) {
    r.feed(&c, 1);
    for (Frame f; r.next(f);) got.push_back(f);
  }
  REQUIRE(got.size() == 2);
  CHECK(got[0].payload == "key");
  CHECK(got[1].type == FrameType::kSet);
  CHECK_FALSE(r.mid_frame());
  // A header promising 64 MiB is refused with its 12 bytes, before anything is kept.
  std::string big = encode_header(FrameType::kHello, kMaxFramePayload);
  FrameReader s(kMaxHelloPayload);
  s.feed(big.data(), big.size());
  Frame f;
  CHECK_THROWS_WITH(s.next(f), Catch::Contains("exceeds the limit"));
}

TEST_CASE("the store sets, waits for and counts keys", "[store]") {
  SockAddr addr = free_local();
  StoreServer server(addr, hello(0), 2);
  StoreClient a(addr, hello(0), 5s), b(addr, hello(1), 5s);
  std::thread later([&] {
    std::this_thread::sleep_for(50ms);
    b.set("k", "value");
  });
  CHECK(a.get("k") == "value");  // blocks until b sets it
  later.join();
  CHECK(a.add("n", 2) == 2);
  CHECK(b.add("n", 3) == 5);
}

TEST_CASE("the store refuses a wrong token, a rank out of range and a duplicate rank", "[store]") {
  // Without a job id, a refused process may be another job's: ours goes on.
  SockAddr addr = free_local();
  StoreServer server(addr, hello(0, 0), 2);
  CHECK_THROWS_WITH(StoreClient(addr, hello(0, 7), 5s), Catch::Contains("job token mismatch"));
  CHECK_THROWS_WITH(StoreClient(addr, hello(5, 0), 5s), Catch::Contains("outside world size"));
  StoreClient first(addr, hello(1, 0), 5s);
  CHECK_THROWS_WITH(StoreClient(addr, hello(1, 0), 5s), Catch::Contains("joined twice"));
  StoreClient owner(addr, hello(0, 0), 5s);
  CHECK(owner.add("still", 1) == 1);
  // With the job's own id it is our rank, started wrongly: the job fails, and says why.
  SockAddr addr2 = free_local();
  StoreServer ours(addr2, hello(0, 42), 2);
  StoreClient rank0(addr2, hello(0, 42), 5s);
  CHECK_THROWS_WITH(StoreClient(addr2, hello(5, 42), 5s), Catch::Contains("outside world size"));
  CHECK_THROWS_WITH(rank0.get("k"), Catch::Contains("outside world size"));
}

TEST_CASE("a rank that vanishes fails the others' waits at once", "[store]") {
  SockAddr addr = free_local();
  StoreServer server(addr, hello(0, 1), 2);
  StoreClient waiter(addr, hello(0, 1), 20s);
  {
    // Leaves without its Done frame, as a killed process would.
    Fd raw = stranger(addr, encode_frame(FrameType::kHello, encode_hello(hello(1, 1))));
    Frame reply;
    REQUIRE(recv_frame(raw.get(), reply, Clock::now() + 5s));
  }
  auto t0 = Clock::now();
  CHECK_THROWS_WITH(waiter.get("never"), Catch::Contains("rank 1 left the job"));
  CHECK(Clock::now() - t0 < 10s);
}

TEST_CASE("no store at the address: a clear error after the timeout", "[store]") {
  SockAddr addr = free_local();  // nothing listens there
  CHECK_THROWS_WITH(StoreClient(addr, hello(1, 0), 300ms), Catch::Contains("no rendezvous store answered"));
}

TEST_CASE("store bootstrap all-gathers and meets at barriers", "[store]") {
  LaunchInfo base;
  base.world_size = 5;
  base.master_port = pick_free_port("127.0.0.1");
  base.token = 9;
  std::vector<std::vector<std::string>> got(5);
  std::vector<std::thread> ranks;
  for (int r = 0; r < 5; ++r)
    ranks.emplace_back([&, r] {
      LaunchInfo info = base;
      info.rank = r;
      StoreBootstrap b(info, 5s);
      got[r] = b.allgather("from " + std::to_string(r));
      b.barrier();
      got[r] = b.allgather(got[r][(r + 1) % 5] + std::string(r * 1000, 'x'));  // uneven sizes
      b.barrier();
    });
  for (auto& t : ranks) t.join();
  for (int r = 0; r < 5; ++r) {
    REQUIRE(got[r].size() == 5);
    for (int q = 0; q < 5; ++q) CHECK(got[r][q] == "from " + std::to_string((q + 1) % 5) + std::string(q * 1000, 'x'));
  }
}

TEST_CASE("stalled strangers do not stall the store: ranks join and gather past them", "[store][strangers]") {
  // Fourteen stalled connections used to hold the store 5 s each. The hello deadline
  // here is a minute, so only a store that never waits on one peer can pass.
  SockAddr addr = free_local();
  StoreServer server(addr, hello(0), 3, StoreLimits{60s, 256, 30s});
  std::vector<Fd> strangers;
  for (int i = 0; i < 14; ++i) strangers.push_back(stranger(addr, "C"));
  std::vector<std::thread> ranks;
  std::atomic<int> finished{0};
  for (int r = 0; r < 3; ++r)
    ranks.emplace_back([&, r] {
      StoreClient c(addr, hello(r), 10s);
      c.gather(0, "x", true);
      c.gather(1, {}, false);
      ++finished;
    });
  for (int i = 0; i < 14; ++i) strangers.push_back(stranger(addr, std::string(1, static_cast<char>(i))));
  for (auto& t : ranks) t.join();
  CHECK(finished == 3);
  for (const Fd& s : strangers) CHECK(still_open(s.get()));  // served around, not closed to make way
}

TEST_CASE("before a hello, a stranger's frame may be hello-sized only; its 64 MiB header is refused", "[store][strangers]") {
  SockAddr addr = free_local();
  StoreServer server(addr, hello(0), 2, StoreLimits{60s, 256, 30s});
  for (FrameType t : {FrameType::kHello, FrameType::kSet}) {
    Fd s = stranger(addr, encode_header(t, kMaxFramePayload));
    CHECK(closed_by_peer(s.get(), 10s));
  }
  Fd wrong_first = stranger(addr, encode_frame(FrameType::kGet, "k"));
  CHECK(closed_by_peer(wrong_first.get(), 10s));
}

TEST_CASE("strangers are closed at their hello deadline, and the oldest when too many wait", "[store][strangers]") {
  SockAddr addr = free_local();
  StoreServer server(addr, hello(0), 2, StoreLimits{60s, 4, 30s});
  std::vector<Fd> s;
  for (int i = 0; i < 5; ++i) {
    s.push_back(stranger(addr, "C"));
    std::this_thread::sleep_for(20ms);  // accepted in this order
  }
  CHECK(closed_by_peer(s[0].get(), 10s));
  CHECK(still_open(s[4].get()));
  StoreServer quick(free_local(), hello(0), 2, StoreLimits{200ms, 256, 30s});
  Fd idle = stranger(quick.address(), "");
  CHECK(closed_by_peer(idle.get(), 10s));
}

TEST_CASE("a rank busy elsewhere hears at once that another failed, or that the store is gone", "[store][watch]") {
  SockAddr addr = free_local();
  auto server = std::make_unique<StoreServer>(addr, hello(0), 3);
  StoreClient a(addr, hello(0), 5s), b(addr, hello(1), 5s), c(addr, hello(2), 5s);
  std::atomic<int> heard{0};
  std::string why_a, why_b;
  auto watch_a = a.watch([&](const std::string& why) { why_a = why, ++heard; });
  auto watch_b = b.watch([&](const std::string& why) { why_b = why, ++heard; });
  c.fail("cannot bind 10.9.9.9");
  for (auto until = Clock::now() + 10s; heard < 2 && Clock::now() < until;) std::this_thread::sleep_for(10ms);
  CHECK_THAT(why_a, Catch::Contains("rank 2 failed: cannot bind 10.9.9.9"));
  CHECK(why_a == why_b);
  CHECK_THROWS_WITH(a.get("k"), Catch::Contains("rank 2 failed"));  // the news stays for the next request
  watch_a.reset();

  SockAddr addr2 = free_local();
  auto gone = std::make_unique<StoreServer>(addr2, hello(0), 2);
  StoreClient d(addr2, hello(1), 5s);
  std::atomic<bool> told{false};
  std::string why_d;
  auto watch_d = d.watch([&](const std::string& why) { why_d = why, told = true; });
  gone->stop();
  gone.reset();
  for (auto until = Clock::now() + 10s; !told && Clock::now() < until;) std::this_thread::sleep_for(10ms);
  CHECK_THAT(why_d, Catch::Contains("rendezvous store (rank 0) is gone"));
}
