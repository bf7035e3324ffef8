// The scan's schedule and verdict, and the ring's hop figures: pure functions.
#include <catch2/catch.hpp>
#include <set>

#include "algo/hop_timeline.h"
#include "judge/pair_scan.h"
#include "runner/hop_report.h"

using namespace ccb::judge;

namespace {

PairMatrix filled(int n, double v) { return PairMatrix(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(n), v)); }

void set_pair(PairMatrix& m, int a, int b, double v) {
  m[static_cast<size_t>(a)][static_cast<size_t>(b)] = v;
  m[static_cast<size_t>(b)][static_cast<size_t>(a)] = v;
}

std::vector<std::string> labels(int n) {
  std::vector<std::string> out;
  for (int r = 0; r < n; ++r) out.push_back("rank " + std::to_string(r));
  return out;
}

}  // namespace

TEST_CASE("the round-robin schedule meets every pair once, in n-1 rounds of disjoint pairs", "[scan]") {
  for (int n = 2; n <= 11; ++n) {
    const auto rounds = round_robin_partners(n);
    CHECK(rounds.size() == static_cast<size_t>(n % 2 ? n : n - 1));
    std::set<std::pair<int, int>> met;
    for (const auto& partner : rounds)
      for (int r = 0; r < n; ++r) {
        const int p = partner[static_cast<size_t>(r)];
        REQUIRE(partner[static_cast<size_t>(p)] == r);  // an involution: disjoint pairs
        if (p > r) CHECK(met.insert({r, p}).second);
      }
    CHECK(met.size() == static_cast<size_t>(n * (n - 1) / 2));
  }
  CHECK(round_robin_partners(1).empty());
}

TEST_CASE("a host slow with every peer is named; equal hosts pass", "[scan]") {
  PairMatrix bw = filled(4, 0.25), lat = filled(4, 50);
  ScanVerdict even = judge_pairs(bw, lat, {});
  CHECK(even.pass());
  CHECK(verdict_lines(even, bw, lat, labels(4), {}).front().rfind("scan: PASS: 6 pairs", 0) == 0);

  for (int peer : {0, 1, 3}) set_pair(bw, 2, peer, 0.25 * 0.6);  // host 2's cable at 60%
  ScanVerdict v = judge_pairs(bw, lat, {});
  CHECK_FALSE(v.pass());
  CHECK(v.bad_hosts == std::vector<int>{2});
  CHECK(v.bad_pairs.empty());
  const auto lines = verdict_lines(v, bw, lat, labels(4), {});
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0], Catch::Contains("host rank 2 is slow with every peer (bandwidth)") &&
                           Catch::Contains("below 0.93 x the median"));
}

TEST_CASE("a slow pair between good hosts is named as their cable or path", "[scan]") {
  PairMatrix bw = filled(4, 0.25), lat = filled(4, 50);
  set_pair(bw, 0, 3, 0.2);
  ScanVerdict v = judge_pairs(bw, lat, {});
  CHECK(v.bad_hosts.empty());
  REQUIRE(v.bad_pairs.size() == 1);
  CHECK((v.bad_pairs[0].a == 0 && v.bad_pairs[0].b == 3 && v.bad_pairs[0].slow_bw));
  CHECK_THAT(verdict_lines(v, bw, lat, labels(4), {})[0],
             Catch::Contains("between rank 0 and rank 3 (slow on bandwidth: 1.600 Gbit/s each way; latency 50.0 us one way)"));
  // A pair slow on latency alone leads with its latency, each figure under its own name.
  PairMatrix bw3 = filled(4, 1.76), lat3 = filled(4, 10);
  set_pair(lat3, 0, 3, 22.2);
  CHECK_THAT(verdict_lines(judge_pairs(bw3, lat3, {}), bw3, lat3, labels(4), {})[0],
             Catch::Contains("(slow on latency: 22.2 us one way; bandwidth 14.080 Gbit/s each way)"));
  // The heatmap's margin fails on whichever measure fails: latency here, bandwidth above.
  CHECK(pair_margin(1.76, 22.2, judge_pairs(bw3, lat3, {}), {}) < 1);
  CHECK(pair_margin(1.76, 10, judge_pairs(bw3, lat3, {}), {}) >= 1);
  CHECK(pair_margin(0.2, 50, v, {}) < 1);
  // With two hosts a slow link is the pair's: the hosts cannot be told apart.
  PairMatrix bw2 = filled(2, 0.1), lat2 = filled(2, 50);
  CHECK(judge_pairs(bw2, lat2, {}).pass());
}

TEST_CASE("latency over 2.1x the minimum is flagged: a host with 5 ms of extra delay", "[scan]") {
  PairMatrix bw = filled(4, 0.25), lat = filled(4, 60);
  for (int peer : {0, 2, 3}) set_pair(lat, 1, peer, 5060);
  ScanVerdict v = judge_pairs(bw, lat, {});
  CHECK(v.bad_hosts == std::vector<int>{1});
  CHECK_THAT(verdict_lines(v, bw, lat, labels(4), {})[0], Catch::Contains("host rank 1 is slow with every peer (latency)"));
  // The limits are the user's: a looser factor passes it.
  CHECK(judge_pairs(bw, lat, {0.93, 100}).pass());
}

TEST_CASE("a scan of fewer than 2 hosts or a misshapen matrix is refused", "[scan]") {
  CHECK_THROWS_WITH(judge_pairs(filled(1, 1), filled(1, 1), {}), Catch::Contains("at least 2 hosts"));
  CHECK_THROWS_WITH(judge_pairs(filled(3, 1), filled(2, 1), {}), Catch::Contains("latency matrix has 2 rows for 3 hosts"));
}

TEST_CASE("hop transfer times: arrival less the sender's post, on the receiver's clock", "[hops]") {
  // The left neighbour's clock reads 1000 us ahead: its posts at 1010 and 1020 are 10
  // and 20 here; arrivals at 15 and 40 took 5 and 20 us.
  const std::vector<double> t = ccb::hop_transfer_us({1010, 1020, 1030}, {15, 40}, 1000);
  CHECK(t == std::vector<double>{5, 20});
}

TEST_CASE("the slowest hop is named against the median hop, a straggler above the factor", "[hops]") {
  using ccb::slowest_hop;
  CHECK_FALSE(slowest_hop({}).has_value());
  CHECK_FALSE(slowest_hop({10, 12}).has_value());  // 2 ranks: one pair of hops
  auto h = slowest_hop({100, 110, 300, 105});  // hop 1 -> 2 into rank 2
  REQUIRE(h);
  CHECK((h->from == 1 && h->to == 2));
  CHECK(h->ratio == Approx(300 / 107.5));
  const std::vector<std::string> names{"rank 0 (host a)", "rank 1 (host b)", "rank 2 (host c)", "rank 3 (host d)"};
  CHECK_THAT(ccb::slowest_hop_line(*h, names, 1.5),
             Catch::Contains("slowest hop: rank 1 (host b) -> rank 2 (host c), 2.79x the median hop") &&
                 Catch::Contains("a straggler, above 1.5x"));
  auto wrap = slowest_hop({400, 110, 100, 105});  // into rank 0: from the last rank
  REQUIRE(wrap);
  CHECK((wrap->from == 3 && wrap->to == 0));
  CHECK_THAT(ccb::slowest_hop_line(*slowest_hop({100, 101, 102}), {}, 1.5), Catch::Contains("no straggler above 1.5x"));
}
