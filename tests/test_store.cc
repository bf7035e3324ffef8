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
using namespace std::chrono_literals;

namespace {
SockAddr free_local() { return resolve_host("127.0.0.1", pick_free_port("127.0.0.1")); }
}  // namespace

TEST_CASE("frame headers are checked before any payload is read", "[store]") {
  using namespace bootstrap;
  CHECK(check_header({kFrameMagic, kFrameVersion, 2, 10}).empty());
  CHECK_THAT(check_header({0xdeadbeef, kFrameVersion, 2, 10}), Catch::Contains("magic"));
  CHECK_THAT(check_header({kFrameMagic, 9, 2, 10}), Catch::Contains("version"));
  CHECK_THAT(check_header({kFrameMagic, kFrameVersion, 99, 10}), Catch::Contains("type"));
  CHECK_THAT(check_header({kFrameMagic, kFrameVersion, 2, kMaxFramePayload + 1}), Catch::Contains("limit"));
}

TEST_CASE("the store sets, waits for and counts keys", "[store]") {
  SockAddr addr = free_local();
  bootstrap::StoreServer server(addr, 2, 42);
  bootstrap::StoreClient a(addr, 0, 42, 5s), b(addr, 1, 42, 5s);
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
  SockAddr addr = free_local();
  bootstrap::StoreServer server(addr, 2, 42);
  CHECK_THROWS_WITH(bootstrap::StoreClient(addr, 0, 7, 5s), Catch::Contains("job token mismatch"));
  CHECK_THROWS_WITH(bootstrap::StoreClient(addr, 5, 42, 5s), Catch::Contains("outside world size"));
  bootstrap::StoreClient first(addr, 1, 42, 5s);
  CHECK_THROWS_WITH(bootstrap::StoreClient(addr, 1, 42, 5s), Catch::Contains("joined twice"));
}

TEST_CASE("a rank that vanishes fails the others' waits at once", "[store]") {
  SockAddr addr = free_local();
  bootstrap::StoreServer server(addr, 2, 1);
  bootstrap::StoreClient waiter(addr, 0, 1, 20s);
  {
    // Leaves without its Done frame, as a killed process would.
    Fd raw = connect_to(addr, Clock::now() + 5s, true);
    std::string hello(12, '\0');
    uint64_t token = 1;
    int32_t rank = 1;
    std::memcpy(hello.data(), &token, 8);
    std::memcpy(hello.data() + 8, &rank, 4);
    bootstrap::send_frame(raw.get(), bootstrap::FrameType::kHello, hello, Clock::now() + 5s);
    bootstrap::Frame reply;
    REQUIRE(bootstrap::recv_frame(raw.get(), reply, Clock::now() + 5s));
  }
  auto t0 = Clock::now();
  CHECK_THROWS_WITH(waiter.get("never"), Catch::Contains("rank 1 left the job"));
  CHECK(Clock::now() - t0 < 10s);
}

TEST_CASE("no store at the address: a clear error after the timeout", "[store]") {
  SockAddr addr = free_local();  // nothing listens there
  CHECK_THROWS_WITH(bootstrap::StoreClient(addr, 1, 0, 300ms), Catch::Contains("no rendezvous store answered"));
}

TEST_CASE("store bootstrap all-gathers and meets at barriers", "[store]") {
  LaunchInfo base;
  base.world_size = 3;
  base.master_port = pick_free_port("127.0.0.1");
  base.token = 9;
  std::vector<std::vector<std::string>> got(3);
  std::vector<std::thread> ranks;
  for (int r = 0; r < 3; ++r)
    ranks.emplace_back([&, r] {
      LaunchInfo info = base;
      info.rank = r;
      StoreBootstrap b(info, 5s);
      got[r] = b.allgather("from " + std::to_string(r));
      b.barrier();
      b.barrier();
    });
  for (auto& t : ranks) t.join();
  for (int r = 0; r < 3; ++r) CHECK(got[r] == std::vector<std::string>{"from 0", "from 1", "from 2"});
}
