// The metrics every figure rests on: bus bandwidth factors, latency statistics, line
// rates, utilization, and how ranks' counters and timings combine.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "metrics/bandwidth.h"
#include "metrics/latency_stats.h"
#include "metrics/link_utilization.h"
#include "runner/rank_report.h"

using namespace ccb;

TEST_CASE("busbw factors are nccl-tests': 2(n-1)/n for AllReduce, (n-1)/n for the others", "[metrics]") {
  CHECK(busbw_factor(CollectiveKind::kAllreduce, 2) == Approx(1.0));
  CHECK(busbw_factor(CollectiveKind::kAllreduce, 4) == Approx(1.5));
  CHECK(busbw_factor(CollectiveKind::kAllreduce, 8) == Approx(1.75));
  CHECK(busbw_factor(CollectiveKind::kReduceScatter, 4) == Approx(0.75));
  CHECK(busbw_factor(CollectiveKind::kAllGather, 8) == Approx(0.875));
  CHECK(busbw_factor(CollectiveKind::kAllreduce, 1) == 0);
  CHECK(algbw_gbps(1'000'000'000, 0.5) == Approx(2.0));
  CHECK(algbw_gbps(100, 0) == 0);
}

TEST_CASE("latency statistics: percentiles interpolate, stdev is the sample one", "[metrics]") {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);  // order must not matter
  LatencyStats s = summarize_latency(v);
  CHECK(s.samples == 100);
  CHECK(s.min == 1);
  CHECK(s.max == 100);
  CHECK(s.p50 == Approx(50.5));
  CHECK(s.p95 == Approx(95.05));
  CHECK(s.p99 == Approx(99.01));
  CHECK(s.mean == Approx(50.5));
  CHECK(s.stdev == Approx(29.011491975882016));
  CHECK(s.cv == Approx(29.011491975882016 / 50.5));

  LatencyStats one = summarize_latency({7.5});
  CHECK((one.p50 == 7.5 && one.p99 == 7.5 && one.stdev == 0 && one.cv == 0));
  LatencyStats none = summarize_latency({});
  CHECK((none.samples == 0 && none.mean == 0));
  LatencyStats four = summarize_latency({1, 2, 3, 4});
  CHECK(four.p50 == Approx(2.5));
  CHECK(four.stdev == Approx(1.2909944487358056));
}

TEST_CASE("line rates are bits per second with a suffix", "[metrics]") {
  CHECK(parse_line_rate("100G") == Approx(100));
  CHECK(parse_line_rate("2.5g") == Approx(2.5));
  CHECK(parse_line_rate("400M") == Approx(0.4));
  CHECK(parse_line_rate("1T") == Approx(1000));
  CHECK(parse_line_rate("25000000000") == Approx(25));
  CHECK_THROWS_WITH(parse_line_rate("100GB"), Catch::Contains("bits per second"));
  CHECK_THROWS_WITH(parse_line_rate("fast"), Catch::Contains("--line-rate"));
  CHECK_THROWS_WITH(parse_line_rate("-5G"), Catch::Contains("--line-rate"));
  CHECK_THROWS_WITH(parse_line_rate("5X"), Catch::Contains("--line-rate"));
}

TEST_CASE("utilization is bytes x 8 over the line rate, and absent without a rate", "[metrics]") {
  CHECK(*utilization_pct(1.25, 10) == Approx(100));
  CHECK(*utilization_pct(0.25, 2) == Approx(100));
  CHECK(*utilization_pct(6.0, 100) == Approx(48));
  CHECK_FALSE(utilization_pct(1, 0).has_value());
}

TEST_CASE("NIC counters: a shared counter counts once, and is shared out over the ranks", "[metrics]") {
  // Loopback: both ranks read one counter that saw both ranks' bytes.
  auto shared = combine_counters({{"h/ns:1/lo", 4'000'000'000, 1.0}, {"h/ns:1/lo", 4'000'100'000, 2.0}});
  REQUIRE(shared);
  CHECK(shared->bytes == 4'000'000'000);
  CHECK(shared->window_s == 2.0);
  CHECK(shared->gbytes_per_s == Approx(1.0));
  // One NIC each (namespaces): each counter is one rank's.
  auto own = combine_counters({{"h/ns:1/veth0", 3'000'000'000, 1.0}, {"h/ns:2/veth1", 1'000'000'000, 1.0}});
  REQUIRE(own);
  CHECK(own->gbytes_per_s == Approx(2.0));
  CHECK_FALSE(combine_counters({{"h/ns:1/lo", 10, 1.0}, {"", 0, 1.0}}).has_value());
  CHECK_FALSE(combine_counters({}).has_value());
  CHECK(read_counter("/nonexistent/counter") == std::nullopt);
  CHECK_FALSE(counter_scope().empty());
}

TEST_CASE("ranks' reports combine: per iteration the slowest, wrong elements summed", "[metrics]") {
  RankReport a, b;
  a.iter_us = {10, 30, 20};
  b.iter_us = {15, 5, 25};
  a.wrong = 1;
  b.wrong = 2;
  a.cpu_pct = 50;
  b.cpu_pct = 100;
  CombinedReport c = combine_reports({decode_report(encode_report(a)), decode_report(encode_report(b))});
  CHECK(c.iter_max_us == std::vector<double>{15, 30, 25});
  CHECK(c.time_us == Approx(20));  // the slowest rank's mean: nccl-tests' time
  CHECK(c.latency_us.p50 == Approx(25));
  CHECK(c.wrong == 3);
  CHECK(c.cpu_pct_mean == Approx(75));
  CHECK(c.cpu_pct_max == Approx(100));
  CHECK_FALSE(c.counter.has_value());  // neither had a counter
  CHECK_THROWS_AS(decode_report("{\"iter_us\": 3}"), Error);
  CHECK_THROWS_AS(decode_report("garbage"), Error);
}
