// lib/judge's statistics against scipy's (tests/fixtures/statistics.json, made by
// make_statistics_fixtures.py with Debian's python3-scipy), plus cases with known answers.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "judge/statistics.h"

using namespace ccb::judge;
using nlohmann::json;

namespace {

json fixtures() {
  std::ifstream in(std::string(CCB_FIXTURES) + "/statistics.json");
  REQUIRE(in);
  return json::parse(in);
}

std::vector<double> numbers(const json& j) { return j.get<std::vector<double>>(); }

}  // namespace

TEST_CASE("Mann-Whitney U and its p-value match scipy: exact, with ties, and approximated", "[judge][stats]") {
  const json f = fixtures();
  REQUIRE(f["mannwhitneyu"].size() >= 15);
  for (const json& c : f["mannwhitneyu"]) {
    INFO(c["name"].get<std::string>());
    UTest t = mann_whitney_u(numbers(c["x"]), numbers(c["y"]));
    CHECK(t.exact == c["exact"].get<bool>());
    CHECK(t.u1 == Approx(c["u1"].get<double>()).epsilon(1e-12));
    CHECK(t.p == Approx(c["p"].get<double>()).epsilon(1e-9).margin(1e-15));
  }
}

TEST_CASE("the U test is symmetric and refuses what it cannot rank", "[judge][stats]") {
  std::vector<double> a{1, 4, 6, 9, 12}, b{2, 3, 5, 7, 8, 10};
  UTest ab = mann_whitney_u(a, b), ba = mann_whitney_u(b, a);
  CHECK(ab.u1 + ba.u1 == Approx(30));
  CHECK(ab.p == Approx(ba.p));
  CHECK_THROWS_AS(mann_whitney_u({}, b), ccb::Error);
  CHECK_THROWS_AS(mann_whitney_u({1, std::nan("")}, b), ccb::Error);
}

TEST_CASE("the median's confidence interval matches order statistics computed with scipy", "[judge][stats]") {
  const json f = fixtures();  // kept: iterating a temporary's member would dangle
  for (const json& c : f["median_ci"]) {
    std::vector<double> v = numbers(c["values"]);
    INFO(v.size() << " values");
    MedianSummary s = summarize_median(v);
    // scipy's median averages the middle two of an even count; ours is the lower one.
    CHECK(s.median == (v.size() % 2 ? Approx(c["median"].get<double>()) : Approx(v[v.size() / 2 - 1])));
    CHECK(s.ci_low == c["low"].get<double>());
    CHECK(s.ci_high == c["high"].get<double>());
    CHECK(s.ci_coverage == Approx(c["coverage"].get<double>()).epsilon(1e-9));
    CHECK(s.min == v.front());
    CHECK(s.max == v.back());
  }
}

TEST_CASE("the geometric mean of ratios", "[judge][stats]") {
  CHECK(geometric_mean({}) == 1);
  CHECK(geometric_mean({2, 0.5}) == Approx(1));
  CHECK(geometric_mean({1.1, 1.1, 1.1}) == Approx(1.1));
}
