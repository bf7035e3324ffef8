// The shared-memory backend: the same contract as every other backend, then what only
// shm has (a hostile peer's control words, the handshake's judge, nothing in /dev/shm).
#include <catch2/catch.hpp>
#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "core/error.h"
#include "transport/shm/shm_handshake.h"
#include "transport/shm/shm_inbox.h"
#include "transport/shm/shm_outbox.h"
#include "transport/shm/shm_ring.h"
#include "transport/shm/shm_segment.h"
#include "transport/shm/shm_transport.h"
#include "transport_pair.h"

using namespace ccb;
using namespace ccb::test;

namespace {

std::unique_ptr<TransportPair> shm_pair(uint64_t token1 = 7, std::chrono::seconds limit = std::chrono::seconds(10)) {
  return std::make_unique<TransportPair>(std::make_unique<shm::ShmTransport>(0, 7),
                                         std::make_unique<shm::ShmTransport>(1, token1), limit);
}

size_t dev_shm_entries() {
  size_t n = 0;
  if (DIR* d = opendir("/dev/shm")) {
    while (readdir(d)) ++n;
    closedir(d);
  }
  return n;
}

constexpr uid_t kNobody = 65534;

// Runs `as_stranger` in a child that has dropped to another uid; returns its exit status.
template <typename Body>
int in_process_of_another_user(Body as_stranger) {
  pid_t child = fork();
  if (child == 0) {
    if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(100);
    _exit(as_stranger());
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

shm::Hello good_hello() { return shm::Hello{shm::kHelloMagic, shm::kWireVersion, 7, 1, 0, 0, 0}; }

}  // namespace

TEST_CASE("shm keeps the transport contract", "[shm]") {
  check_transport_contract({"shm", [] { return shm_pair(); }, "connection to rank 1 lost"});
}

TEST_CASE("shm: messages of 0 B to 64 MiB arrive intact, eager and single-copy", "[shm]") {
  auto p = shm_pair();
  for (size_t bytes : {size_t{0}, size_t{1}, shm::kSlotBytes - 1, shm::kSlotBytes, shm::kSlotBytes + 1,
                       shm::kSingleCopyBytes - 1, shm::kSingleCopyBytes, size_t{(1 << 20) + 3}, size_t{64 << 20}}) {
    INFO("bytes " << bytes);
    send_recv(*p, bytes, static_cast<uint32_t>(bytes % 1000));
  }
}

TEST_CASE("shm: a wrong job token is refused at connect", "[shm]") {
  // The listener drops the stranger and keeps waiting for its real peer: 2 s, not 10.
  CHECK_THROWS_WITH(shm_pair(8, std::chrono::seconds(2)), Catch::Contains("job token mismatch"));
}

TEST_CASE("shm: a pair leaves nothing in /dev/shm, while it runs or after", "[shm]") {
  size_t before = dev_shm_entries();
  {
    auto p = shm_pair();
    send_recv(*p, 1 << 20, 1);
    CHECK(dev_shm_entries() == before);
  }
  CHECK(dev_shm_entries() == before);
}

TEST_CASE("shm: the listener judges a Hello before it trusts it", "[shm]") {
  using shm::HelloStatus;
  uid_t me = getuid();
  CHECK(shm::judge_hello(good_hello(), 7, 0, me, me) == HelloStatus::kOk);
  auto h = good_hello();
  h.token = 8;
  CHECK(shm::judge_hello(h, 7, 0, me, me) == HelloStatus::kBadToken);
  h = good_hello();
  h.to_rank = 2;
  CHECK(shm::judge_hello(h, 7, 0, me, me) == HelloStatus::kWrongRank);
  h = good_hello();
  h.version = 99;
  CHECK(shm::judge_hello(h, 7, 0, me, me) == HelloStatus::kBadVersion);
  h = good_hello();
  h.magic = 0;
  CHECK(shm::judge_hello(h, 7, 0, me, me) != HelloStatus::kOk);
  CHECK(shm::judge_hello(good_hello(), 7, 0, me + 1, me) == HelloStatus::kWrongUser);
}

TEST_CASE("shm: an address from the store is parsed, and garbage is refused", "[shm]") {
  auto a = shm::parse_address(shm::format_address({"hostA:boot:ns", 1234, "ccb-abc"}));
  CHECK(a.host == "hostA:boot:ns");
  CHECK(a.pid == 1234);
  CHECK(a.name == "ccb-abc");
  for (const char* bad : {"", "host", "host 12", "host -1 name", "host 12x name", "host 99999999999 name"})
    CHECK_THROWS_AS(shm::parse_address(bad), Error);
}

TEST_CASE("shm: a peer's slot header and ring indices are checked, overflow included", "[shm]") {
  using shm::SlotKind;
  shm::SlotHeader ok{static_cast<uint32_t>(SlotKind::kData), 1, 0, 1000, 0, 1000, 0};
  CHECK(shm::check_slot(ok).empty());
  auto h = ok;
  h.kind = 9;
  CHECK_FALSE(shm::check_slot(h).empty());
  h = ok;
  h.len = shm::kSlotBytes + 1;
  CHECK_FALSE(shm::check_slot(h).empty());
  h = ok;
  h.offset = ~0ull - 10;  // offset + len wraps
  CHECK_FALSE(shm::check_slot(h).empty());
  h = ok;
  h.total = shm::kMaxMessageBytes + 1;
  CHECK_FALSE(shm::check_slot(h).empty());
  CHECK(shm::check_stamp(3, 3).empty());
  CHECK(shm::check_stamp(0, 3).empty());  // not yet written, first lap
  CHECK(shm::check_stamp(3, 3 + shm::kSlots).empty());  // not yet written, a lap later
  CHECK_FALSE(shm::check_stamp(4, 3).empty());
  CHECK_FALSE(shm::check_stamp(0, 3 + shm::kSlots).empty());
  CHECK_FALSE(shm::check_stamp(~0ull, 3).empty());
  CHECK(shm::check_indices(5, 3).empty());
  CHECK_FALSE(shm::check_indices(3, 5).empty());
  CHECK_FALSE(shm::check_indices(shm::kSlots + 4, 3).empty());
}

TEST_CASE("shm: a process of another user can neither open the segment nor be handed it", "[shm]") {
  if (geteuid() != 0) {
    WARN("not root: no process of another uid to start; skipped");
    return;
  }
  shm::CreatedSegment seg = shm::create_segment(0, 1);
  const std::string by_proc = "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(seg.fd.get());
  CHECK(in_process_of_another_user([&] { return open(by_proc.c_str(), O_RDWR) < 0 ? 0 : 1; }) == 0);

  // It connects with the right token: the listener still refuses it, by its uid.
  shm::ShmTransport listener(0, 7);
  const std::string name = shm::parse_address(listener.listen_address()).name;
  pid_t child = fork();
  if (child == 0) {
    if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(100);
    try {
      const auto deadline = Clock::now() + std::chrono::seconds(5);
      Fd s = shm::connect_abstract(name, deadline);
      shm::Hello h = good_hello();
      if (::write(s.get(), &h, sizeof h) != sizeof h) _exit(101);
      shm::Ack ack{};
      Fd memfd;
      if (!shm::recv_with_fd(s.get(), &ack, sizeof ack, memfd, deadline)) _exit(102);
      if (memfd) _exit(103);  // handed the segment
      _exit(ack.status == static_cast<uint32_t>(shm::HelloStatus::kWrongUser) ? 0 : 104);
    } catch (...) {
      _exit(105);
    }
  }
  CHECK_THROWS_WITH(listener.accept(1, Clock::now() + std::chrono::seconds(2)), Catch::Contains("never connected"));
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("shm: a socket planted under a rank's address is refused by its owner's pid", "[shm]") {
  std::string planted;
  Fd squatter = shm::listen_abstract(planted);  // held by this process, not by the pid the store names
  shm::ShmTransport rank1(1, 7);
  const std::string address = shm::format_address({host_key(), getpid() == 1 ? 2 : 1, planted});
  CHECK_THROWS_WITH(rank1.connect(0, address, Clock::now() + std::chrono::seconds(2)),
                    Catch::Contains("is held by pid " + std::to_string(getpid()) + ", not by pid"));
}

TEST_CASE("shm: a flood of messages that no receive wants is held up to a bound, then waits in the ring", "[shm]") {
  auto ring = std::make_unique<shm::Ring>();
  shm::ShmInbox inbox(*ring, ErrorContext{0, 1, "shm", "test", 0, ""}, [](char*, uint64_t, size_t) {}, 1 << 20);
  uint64_t head = 0, seq = 0;
  size_t taken = 0;
  for (size_t n = 1; n > 0; taken += n) {  // zero-byte messages hold no bytes: only the count bounds them
    for (; head - ring->tail.load() < shm::kSlots; ++seq) {
      shm::Slot& slot = ring->slots[head % shm::kSlots];
      slot.header = shm::SlotHeader{static_cast<uint32_t>(shm::SlotKind::kData), 5, seq, 0, 0, 0, 0};
      slot.stamp.store(++head);
    }
    n = inbox.drain();
  }
  CHECK(taken == shm::kMaxEarlyMessages);
  char buf[1];
  CHECK(inbox.post(buf, sizeof buf, 5)->complete);  // the first one's receive frees a place
  CHECK(inbox.drain() == 1);
}

TEST_CASE("shm: a slot stamped out of turn is a named protocol error", "[shm]") {
  auto ring = std::make_unique<shm::Ring>();
  shm::ShmInbox inbox(*ring, ErrorContext{0, 1, "shm", "test", 0, ""}, [](char*, uint64_t, size_t) {}, 1 << 20);
  char buf[8];
  auto recv = inbox.post(buf, sizeof buf, 5);
  ring->slots[0].header = shm::SlotHeader{static_cast<uint32_t>(shm::SlotKind::kData), 5, 0, 8, 0, 8, 0};
  CHECK(inbox.drain() == 0);  // stamp 0: not yet written
  CHECK_FALSE(inbox.has_unread());
  ring->slots[0].stamp.store(7);  // neither message 1 nor a lap before it
  CHECK(inbox.has_unread());
  CHECK_THROWS_WITH(inbox.drain(), Catch::Contains("broke the shm protocol") && Catch::Contains("stamped 7"));
  CHECK_FALSE(recv->complete);
}

TEST_CASE("shm: a receive pulled in one copy completes only once its kDone has left, even behind a full ring", "[shm]") {
  auto in = std::make_unique<shm::Ring>(), out = std::make_unique<shm::Ring>();
  const ErrorContext ctx{0, 1, "shm", "test", 0, ""};
  shm::ShmInbox inbox(*in, ctx, [](char* into, uint64_t, size_t bytes) { std::memset(into, 7, bytes); }, 1 << 20);
  shm::ShmOutbox outbox(*out, ctx, false);
  char small[1];
  for (uint32_t i = 0; i < shm::kSlots; ++i) outbox.post(small, 1, 9);
  REQUIRE(outbox.pump(inbox.dones_to_send()) == shm::kSlots);  // the reader has taken none: our ring is full
  std::vector<char> buf(shm::kSingleCopyBytes);
  auto recv = inbox.post(buf.data(), buf.size(), 5);
  in->slots[0].header = shm::SlotHeader{static_cast<uint32_t>(shm::SlotKind::kPull), 5, 0, buf.size(), 0, 0, 1 << 20};
  in->slots[0].stamp.store(1);
  CHECK(inbox.drain() == 1);
  CHECK(outbox.pump(inbox.dones_to_send()) == 0);
  CHECK_FALSE(recv->complete);  // its waiter must keep driving the connection
  out->tail.store(1);
  CHECK(outbox.pump(inbox.dones_to_send()) == 1);
  CHECK(recv->complete);
  CHECK(buf.back() == 7);
}
