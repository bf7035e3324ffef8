// Rules with thresholds: the YAML refused with its line and column, every kind of
// bound judged on synthetic results with known figures.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "judge/rules.h"
#include "report/rules_report.h"

using namespace ccb;
using namespace ccb::judge;

namespace {

Measured result(uint64_t bytes, double busbw, const std::string& collective = "allreduce") {
  Measured m;
  m.collective = collective, m.algorithm = "ring", m.transport = "tcp", m.dtype = "float", m.op = "sum";
  m.ranks = 2;
  m.bytes = bytes;
  m.busbw_gbps = {busbw, busbw * 1.01, busbw * 0.99};
  m.time_us = {static_cast<double>(bytes) / busbw / 1e3, 0, 0};
  m.time_us = {m.time_us[0], m.time_us[0], m.time_us[0]};
  m.p50_us = {10, 11, 12};
  m.p99_us = {20, 21, 22};
  m.key = collective + " " + std::to_string(bytes);
  return m;
}

ResultFile file(std::vector<Measured> results, double line_rate = 2) {
  ResultFile f;
  f.path = "r.json";
  f.line_rate_gbps = line_rate;
  f.results = std::move(results);
  return f;
}

std::string rules(const std::string& body) { return "rules:\n" + body; }

}  // namespace

TEST_CASE("a rule file with an error names its line, column and field", "[judge][rules]") {
  auto refused = [](const std::string& yaml) {
    try {
      parse_rules(yaml, "r.yaml");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(refused(rules("  - name: a\n    require: speed >= 1\n")), Catch::StartsWith("r.yaml:3:14: require: unknown metric 'speed'"));
  CHECK_THAT(refused(rules("  - select: {colour: red}\n    require: wrong == 0\n")), Catch::StartsWith("r.yaml:2:14: select.colour"));
  CHECK_THAT(refused(rules("  - require: busbw_GBps >= lots\n")), Catch::Contains("is not a bound"));
  CHECK_THAT(refused(rules("  - require: busbw change >= -5\n")), Catch::Contains("in percent"));
  CHECK_THAT(refused(rules("  - require: busbw_GBps >= 5%\n")), Catch::Contains("in percent"));
  CHECK_THAT(refused(rules("  - select: {min_bytes: 4T}\n    require: wrong == 0\n")), Catch::StartsWith("r.yaml:2:25: select.min_bytes"));
  CHECK_THAT(refused(rules("  - name: no bound\n")), Catch::Contains("require: each rule needs one"));
  CHECK_THAT(refused(rules("  - name: x\n   require: [\n")), Catch::StartsWith("r.yaml:3:") && Catch::Contains("YAML"));
  CHECK_THAT(refused("limits: []\n"), Catch::Contains("'rules:' is a list"));
  // Found by the fuzzer: a key that is a list made yaml-cpp throw past the parser.
  CHECK_THAT(refused(rules("  - select: {[a]: b}\n    require: wrong == 0\n")), Catch::Contains("a plain value"));
  CHECK_THAT(refused(rules("  - {name: [x], require: wrong == 0, [k]: v}\n")), Catch::StartsWith("r.yaml:2:"));
  CHECK_THAT(refused("rules: []\n"), Catch::Contains("empty"));
  CHECK(refused(rules("  - name: fine\n    select: {collective: allreduce, sizes: [1M, 64M]}\n    require: present\n")) == "accepted");
}

TEST_CASE("absolute, line-rate and wrong-result bounds, on the results a selector picks", "[judge][rules]") {
  ResultFile f = file({result(64 << 10, 0.05), result(1 << 20, 0.24), result(16 << 20, 0.20), result(1 << 20, 0.2, "all_gather")});
  auto judge = [&](const std::string& body) { return check_rules(parse_rules(rules(body), "r.yaml"), f, nullptr); };
  RuleReport util = judge("  - select: {collective: allreduce, min_bytes: 1M}\n    require: link_util_pct >= 90\n");
  REQUIRE(util.outcomes.size() == 2);
  CHECK(util.outcomes[0].passed);  // 0.24 GB/s x 8 = 96% of 2 Gbit/s
  CHECK_FALSE(util.outcomes[1].passed);  // 80%
  CHECK(*util.outcomes[1].measured == Approx(80));
  CHECK(util.failing_keys() == std::vector<std::string>{"allreduce 16777216"});
  CHECK(judge("  - select: {max_bytes: 64K}\n    require: p99_us <= 30\n").failures() == 0);
  CHECK(judge("  - require: busbw_GBps > 0.1\n    select: {min_bytes: 1M}\n").failures() == 0);
  CHECK(judge("  - require: wrong == 0\n").failures() == 0);
  CHECK(judge("  - select: {collective: reduce_scatter}\n    require: wrong == 0\n").outcomes.at(0).detail ==
        "no result matches the selector");
  ResultFile no_rate = file({result(1 << 20, 0.24)}, 0);
  no_rate.line_rate_gbps.reset();
  RuleReport r = check_rules(parse_rules(rules("  - require: link_util_pct >= 90\n"), "r.yaml"), no_rate, nullptr);
  CHECK_THAT(r.outcomes.at(0).detail, Catch::Contains("--line-rate"));
}

TEST_CASE("present names each missing size; a change bound needs and uses the baseline", "[judge][rules]") {
  ResultFile f = file({result(1 << 20, 0.2), result(16 << 20, 0.19)});
  RuleReport present = check_rules(parse_rules(rules("  - select: {sizes: [1M, 16M, 64M]}\n    require: present\n"), "r"), f, nullptr);
  REQUIRE(present.outcomes.size() == 3);
  CHECK(present.failures() == 1);
  CHECK(present.outcomes[2].detail == "size 64 MiB missing");
  CHECK(present.failing_keys().empty());  // nothing to measure again
  const auto change = parse_rules(rules("  - require: busbw change >= -5%\n"), "r");
  CHECK_THROWS_WITH(check_rules(change, f, nullptr), Catch::Contains("--baseline"));
  ResultFile base = file({result(1 << 20, 0.25), result(16 << 20, 0.195)});
  RuleReport vs = check_rules(change, f, &base);
  CHECK_FALSE(vs.outcomes[0].passed);  // -20%
  CHECK(*vs.outcomes[0].measured == Approx(-20));
  CHECK(vs.outcomes[1].passed);        // -2.6%
  CHECK_THAT(report::rules_junit(vs), Catch::Contains("failures=\"1\""));
  CHECK(vs.exit_status() == 1);
}
