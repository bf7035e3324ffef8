// The store's pure parts: the hello (its wire form and the verdict on it) and the
// bookkeeping (StoreState), driven with frames and no sockets.
#include <catch2/catch.hpp>
#include <cstring>

#include "bootstrap/frame.h"
#include "bootstrap/store_hello.h"
#include "bootstrap/store_state.h"
#include "core/error.h"

using namespace ccb;
using namespace ccb::bootstrap;

namespace {

StoreHello hello(int rank, uint64_t token = 0, JobFingerprint f = {}) { return {token, rank, "", std::move(f)}; }

JobFingerprint sizes(const std::string& s) {
  JobFingerprint f;
  add_field(f, "world size", "2");
  add_field(f, "--sizes", s);
  add_field(f, "-d", "float");
  return f;
}

Frame frame(FrameType t, std::string payload = {}) { return {t, std::move(payload)}; }

Frame add_frame(const std::string& key, int64_t delta) {
  std::string p = key + '\0' + std::string(8, '\0');
  std::memcpy(p.data() + key.size() + 1, &delta, 8);
  return frame(FrameType::kAdd, p);
}

Frame gather_frame(uint64_t round, const std::string& blob, bool all = true) {
  std::string p(reinterpret_cast<const char*>(&round), 8);
  p += static_cast<char>(all);
  return frame(FrameType::kGather, p + blob);
}

// Joins `rank` as client `c`; returns the actions of the hello.
StoreActions join(StoreState& s, ClientId c, int rank) {
  StoreActions a;
  s.on_frame(c, frame(FrameType::kHello, encode_hello(hello(rank))), a);
  return a;
}

const StoreReply* reply_to(const StoreActions& a, ClientId c) {
  for (const auto& r : a.replies)
    if (r.to == c) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("a hello survives its wire form, and a malformed one is refused", "[store][hello]") {
  StoreHello h{0x1234, 3, "Slurm job 42.0", sizes("1M,4M")};
  std::string wire = encode_hello(h);
  StoreHello back = parse_hello(wire);
  CHECK(back.token == h.token);
  CHECK(back.rank == 3);
  CHECK(back.job == "Slurm job 42.0");
  CHECK(back.fingerprint == h.fingerprint);
  for (size_t cut = 0; cut < wire.size(); ++cut) CHECK_THROWS_AS(parse_hello(wire.substr(0, cut)), Error);
  CHECK_THROWS_WITH(parse_hello(wire + "x"), Catch::Contains("after its last field"));
}

TEST_CASE("a long fingerprint value is shortened to its start and a hash of the whole", "[store][hello]") {
  JobFingerprint f;
  add_field(f, "--sizes", std::string(5000, '8'));
  add_field(f, "--other", std::string(5000, '8') + "9");
  REQUIRE(f[0].value.size() < kMaxFieldValue);
  CHECK_THAT(f[0].value, Catch::Contains("5000 chars, hash"));
  CHECK(f[0].value != f[1].value);  // values that differ past the cut still differ
}

TEST_CASE("the verdict on a hello names what differs, and whose job is refused", "[store][hello]") {
  StoreHello owner = hello(0, 0, sizes("4M"));
  SECTION("agreeing flags join") { CHECK(judge_hello(owner, 2, hello(1, 0, sizes("4M")), false).refusal.empty()); }
  SECTION("other flags: both sides read what differs") {
    HelloVerdict v = judge_hello(owner, 2, hello(1, 0, sizes("1M")), false);
    CHECK_THAT(v.refusal, Catch::StartsWith("rank 1 runs --sizes 1M but rank 0 runs --sizes 4M"));
    CHECK_FALSE(v.same_job);  // no job id: it may be a stranger's job, which must not end ours
  }
  SECTION("with the job's own id, a rank started wrongly fails the job") {
    StoreHello ours = owner, joiner = hello(1, 0, sizes("1M"));
    ours.token = joiner.token = 77;
    CHECK(judge_hello(ours, 2, joiner, false).same_job);
  }
  SECTION("another job's id names both jobs") {
    StoreHello a = owner, b = hello(1, 0, sizes("4M"));
    a.token = 1, a.job = "Slurm job 42.0";
    b.token = 2, b.job = "Slurm job 43.0";
    HelloVerdict v = judge_hello(a, 2, b, false);
    CHECK_THAT(v.refusal, Catch::Contains("job token mismatch") && Catch::Contains("Slurm job 42.0") &&
                              Catch::Contains("Slurm job 43.0"));
    CHECK_FALSE(v.same_job);
  }
  SECTION("a rank out of range, or taken") {
    CHECK_THAT(judge_hello(owner, 2, hello(5, 0, sizes("4M")), false).refusal, Catch::Contains("outside world size 2"));
    CHECK_THAT(judge_hello(owner, 2, hello(1, 0, sizes("4M")), true).refusal, Catch::Contains("joined twice"));
  }
}

TEST_CASE("a stranger that does not start with a good hello is dropped, unanswered", "[store][state]") {
  StoreState s(hello(0), 2);
  for (Frame f : {frame(FrameType::kSet, std::string("k\0v", 3)), frame(FrameType::kHello, "short"),
                  frame(FrameType::kGet, "k")}) {
    StoreActions a;
    s.on_frame(9, f, a);
    CHECK(a.drops == std::vector<ClientId>{9});
    CHECK(a.replies.empty());
  }
  CHECK(s.connected_ranks() == 0);
}

TEST_CASE("set then add on one key answers an error, and the store goes on", "[store][state]") {
  // It used to throw std::invalid_argument from std::stoll, out of the store's thread.
  StoreState s(hello(0), 2);
  join(s, 1, 0);
  StoreActions a;
  s.on_frame(1, frame(FrameType::kSet, std::string("k\0not a number", 14)), a);
  s.on_frame(1, add_frame("k", 1), a);
  REQUIRE(reply_to(a, 1));
  CHECK(reply_to(a, 1)->type == FrameType::kError);
  CHECK_THAT(*reply_to(a, 1)->payload, Catch::Contains("not a counter"));
  StoreActions b;
  s.on_frame(1, add_frame("n", INT64_MAX), b);
  s.on_frame(1, add_frame("n", 1), b);
  CHECK(b.replies.back().type == FrameType::kError);
  CHECK_THAT(*b.replies.back().payload, Catch::Contains("overflow"));
  StoreActions c;
  s.on_frame(1, add_frame("m", 5), c);
  CHECK(*c.replies.back().payload == "5");
}

TEST_CASE("a gather answers every rank once all have sent, with one shared answer", "[store][state]") {
  StoreState s(hello(0), 3);
  for (int r = 0; r < 3; ++r) join(s, static_cast<ClientId>(r + 1), r);
  StoreActions a;
  s.on_frame(3, gather_frame(0, "c"), a);
  s.on_frame(1, gather_frame(0, "a"), a);
  CHECK(a.replies.empty());
  s.on_frame(2, gather_frame(0, ""), a);
  REQUIRE(a.replies.size() == 3);
  CHECK(a.replies[0].payload == a.replies[2].payload);  // built once
  CHECK(split_gathered(*a.replies[0].payload, 3) == std::vector<std::string>{"a", "", "c"});
  StoreActions twice;
  s.on_frame(1, gather_frame(1, "x"), twice);
  s.on_frame(1, gather_frame(2, "x"), twice);
  CHECK(twice.replies.back().type == FrameType::kError);  // a second gather before the first was answered
  CHECK_THROWS_AS(split_gathered("\x05\0\0\0ab", 1), Error);
}

TEST_CASE("a failure reaches every rank, waiting or not, and later requests hear it", "[store][state]") {
  StoreState s(hello(0), 3);
  for (int r = 0; r < 3; ++r) join(s, static_cast<ClientId>(r + 1), r);
  StoreActions a;
  s.on_frame(2, frame(FrameType::kGet, "never"), a);  // rank 1 waits
  s.on_frame(3, frame(FrameType::kFail, "no network interface named 'nope0'"), a);
  REQUIRE(a.replies.size() == 3);
  for (const auto& r : a.replies) {
    CHECK(r.type == FrameType::kError);
    CHECK_THAT(*r.payload, Catch::Contains("rank 2 failed: no network interface named 'nope0'"));
  }
  StoreActions later;
  s.on_frame(1, gather_frame(0, "x"), later);
  CHECK(later.replies.at(0).type == FrameType::kError);
}

TEST_CASE("a rank that leaves without Done fails the job; one that says Done does not", "[store][state]") {
  StoreState s(hello(0), 2);
  join(s, 1, 0);
  join(s, 2, 1);
  StoreActions done;
  s.on_frame(1, frame(FrameType::kDone), done);
  s.on_close(1, done);
  CHECK(s.failure().empty());
  StoreActions gone;
  s.on_close(2, gone);
  CHECK_THAT(s.failure(), Catch::Contains("rank 1 left the job without finishing"));
  CHECK(s.all_left());
}
