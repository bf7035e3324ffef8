// Judging two runs: result files of every kind read into one form, and compare on
// synthetic records whose answer is known (a shift of known size, ties, tiny samples,
// files that are not comparable), with its table, Markdown, JSON and JUnit.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "judge/baseline.h"
#include "judge/compare.h"
#include "judge/result_file.h"
#include "report/compare_report.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::judge;
using nlohmann::json;
using ccb::test::TempDir;

namespace {

// A schema-2 record: one AllReduce key per size, with these passes' bus bandwidths.
json record(const std::vector<std::pair<uint64_t, std::vector<double>>>& sizes, const std::string& cpu = "EPYC") {
  json results = json::array();
  for (const auto& [bytes, bws] : sizes) {
    json passes = json::array();
    for (double bw : bws)
      passes.push_back({{"busbw_gbps", bw}, {"time_us", 1e3 / bw}, {"latency_us", {{"p50", 1e3 / bw}, {"p99", 2e3 / bw}}}});
    results.push_back({{"collective", "allreduce"}, {"algorithm", "ring"}, {"dtype", "float"}, {"op", "sum"},
                       {"in_place", false}, {"bytes", bytes}, {"wrong", 0}, {"passes", passes}});
  }
  return {{"schema", "ccbench.result/2"}, {"complete", true},
          {"job", {{"started_utc", "2026-12-04T00:00:00Z"}, {"machine", {{"host", "h"}, {"cpu", cpu}, {"cpus", 2}}},
                   {"ranks", 2}, {"transport", {{"name", "tcp"}, {"settings", "tcp streams=1 addr=10.0.0.1"}}},
                   {"line_rate_gbps", 2.0}}},
          {"results", results}};
}

ResultFile as_file(const TempDir& d, const std::string& name, const json& j) {
  return read_result_file(d.write(name, j.dump()));
}

std::vector<double> around(double v, int n) {  // n passes within 1% of v
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(v * (1 + 0.002 * (i - n / 2)));
  return out;
}

}  // namespace

TEST_CASE("a 20% slower run is a regression on every key; the same run is unchanged", "[judge][compare]") {
  TempDir d;
  ResultFile base = as_file(d, "base.json", record({{1 << 20, around(0.25, 10)}, {64 << 20, around(0.246, 10)}}));
  ResultFile slow = as_file(d, "slow.json", record({{1 << 20, around(0.20, 10)}, {64 << 20, around(0.197, 10)}}));
  ResultFile same = as_file(d, "same.json", record({{1 << 20, around(0.25, 10)}, {64 << 20, around(0.246, 10)}}));
  Comparison c = compare(base, slow, {});
  REQUIRE(c.rows.size() == 2);
  for (const KeyComparison& k : c.rows) {
    CHECK(k.verdict == Verdict::kRegression);
    CHECK(k.change == Approx(-0.2).margin(0.01));
    CHECK(*k.p < 0.001);
    CHECK(k.test == "passes");
  }
  CHECK(c.exit_status() == 1);
  CHECK(c.geomean_change == Approx(-0.2).margin(0.01));
  Comparison u = compare(base, same, {});
  CHECK(u.count(Verdict::kUnchanged) == 2);
  CHECK(u.exit_status() == 0);
  Comparison better = compare(slow, base, {});
  CHECK(better.count(Verdict::kImprovement) == 2);
  CHECK(better.exit_status() == 0);
}

TEST_CASE("a change must pass both alpha and the smallest change that counts", "[judge][compare]") {
  TempDir d;
  ResultFile base = as_file(d, "b.json", record({{4096, around(1.00, 10)}}));
  ResultFile small = as_file(d, "s.json", record({{4096, around(0.97, 10)}}));  // significant, but 3%
  CHECK(compare(base, small, {}).rows[0].verdict == Verdict::kUnchanged);
  CHECK(compare(base, small, {0.05, 0.02}).rows[0].verdict == Verdict::kRegression);
  // Three passes a side cannot reach p < 0.05 (the smallest exact p is 0.1), however large the change.
  ResultFile b3 = as_file(d, "b3.json", record({{4096, {1.0, 1.01, 0.99}}}));
  ResultFile n3 = as_file(d, "n3.json", record({{4096, {0.5, 0.51, 0.49}}}));
  KeyComparison k = compare(b3, n3, {}).rows[0];
  CHECK(*k.p == Approx(0.1));
  CHECK(k.verdict == Verdict::kUnchanged);
}

TEST_CASE("one pass: the samples are tested and the verdict says it is weaker; without them, nothing", "[judge][compare]") {
  TempDir d;
  json b = record({{4096, {1.0}}}), n = record({{4096, {0.5}}});
  CHECK(compare(as_file(d, "b.json", b), as_file(d, "n.json", n), {}).rows[0].verdict == Verdict::kNotComparable);
  CHECK(compare(as_file(d, "b.json", b), as_file(d, "n.json", n), {}).exit_status() == 1);  // nothing tested: no pass
  std::vector<double> fast(50), slow(50);
  for (int i = 0; i < 50; ++i) fast[i] = 100 + i % 7, slow[i] = 200 + i % 7;
  b["results"][0]["passes"][0]["samples_us"] = fast;
  n["results"][0]["passes"][0]["samples_us"] = slow;
  KeyComparison k = compare(as_file(d, "b.json", b), as_file(d, "n.json", n), {}).rows[0];
  CHECK(k.test == "samples");
  CHECK(k.verdict == Verdict::kRegression);
  CHECK_THAT(k.note, Catch::Contains("weaker"));
}

TEST_CASE("files of other machines, settings, line rates or schemas are not comparable, naming the field", "[judge][compare]") {
  TempDir d;
  json base = record({{4096, around(1, 5)}});
  ResultFile b = as_file(d, "b.json", base);
  json other_host_addr = base;
  other_host_addr["job"]["transport"]["settings"] = "tcp streams=1 addr=10.0.0.2";  // another host: still comparable
  CHECK(compare(b, as_file(d, "h.json", other_host_addr), {}).not_comparable.empty());
  json cpu = record({{4096, around(1, 5)}}, "Xeon");
  CHECK_THAT(compare(b, as_file(d, "c.json", cpu), {}).not_comparable, Catch::StartsWith("machine"));
  json streams = base;
  streams["job"]["transport"]["settings"] = "tcp streams=4";
  CHECK_THAT(compare(b, as_file(d, "s.json", streams), {}).not_comparable, Catch::StartsWith("transport settings"));
  json device = base;
  device["job"]["memory"] = "cuda";  // a file without the key is host memory, as every run before it was
  CHECK(compare(b, as_file(d, "cuda.json", device), {}).not_comparable == "memory space: host vs cuda");
  json rate = base;
  rate["job"]["line_rate_gbps"] = 1.6;
  Comparison c = compare(b, as_file(d, "r.json", rate), {});
  CHECK_THAT(c.not_comparable, Catch::StartsWith("line rate: 2 Gbit/s vs 1.6 Gbit/s"));
  CHECK(c.rows[0].verdict == Verdict::kNotComparable);
  CHECK_THAT(c.rows[0].note, Catch::Contains("line rate"));
}

TEST_CASE("keys on one side only are listed, and schema 1 and Google Benchmark JSON are read", "[judge][compare]") {
  TempDir d;
  Comparison c = compare(as_file(d, "b.json", record({{4096, around(1, 5)}, {8192, around(1, 5)}})),
                         as_file(d, "n.json", record({{4096, around(1, 5)}, {16384, around(1, 5)}})), {});
  CHECK(c.only_base.size() == 1);
  CHECK(c.only_new.size() == 1);
  json v1 = record({});
  v1["schema"] = "ccbench.result/1";
  v1["results"] = json::array({{{"collective", "all_gather"}, {"algorithm", "ring"}, {"dtype", "bfloat16"}, {"op", "none"},
                                {"bytes", 1024}, {"busbw_gbps", 0.5}, {"time_us", 10.0},
                                {"latency_us", {{"p50", 9.0}, {"p99", 12.0}}}, {"wrong", 0},
                                {"profile", "llama2-7b:fsdp"}, {"what", "block parameters"}}});
  ResultFile one = as_file(d, "v1.json", v1);
  REQUIRE(one.results.size() == 1);
  CHECK(one.results[0].busbw_gbps == std::vector<double>{0.5});
  CHECK_THAT(one.results[0].key, Catch::StartsWith("llama2-7b:fsdp[ring] block parameters: all_gather ring tcp bfloat16"));
  json gb{{"context", {{"ccbench_transport", "tcp streams=1"}, {"ccbench_ranks", "4"}, {"ccbench_cpu", "EPYC"}, {"num_cpus", 2}}},
          {"benchmarks", json::array()}};
  for (int rep = 0; rep < 3; ++rep)
    gb["benchmarks"].push_back({{"name", "allreduce/ring/tcp/1048576/iterations:20/manual_time"}, {"run_type", "iteration"},
                                {"real_time", 100.0 + rep}, {"busbw_GBps", 1.5}, {"p50_us", 99.0}, {"p99_us", 120.0}});
  gb["benchmarks"].push_back({{"name", "allreduce/ring/tcp/1048576_cv"}, {"run_type", "aggregate"}, {"wrong", 0}});
  gb["benchmarks"].push_back({{"name", "llama2-7b:tp/step/ring/tcp"}, {"run_type", "iteration"}});
  std::string text = gb.dump();
  text.replace(text.find("\"wrong\":0"), 9, "\"wrong\":NaN");  // as Google Benchmark writes a cv of zeros
  ResultFile g = read_result_file(d.write("gb.json", text));
  CHECK(g.schema == "google-benchmark");
  REQUIRE(g.results.size() == 1);
  CHECK(g.results[0].busbw_gbps.size() == 3);  // each repetition a pass
  CHECK(g.results[0].key == "allreduce ring tcp float sum 4 ranks 1048576 B");
  CHECK_THAT(compare(one, g, {}).not_comparable, Catch::StartsWith("schema"));
}

TEST_CASE("bad result files: one line naming the file and the fix", "[judge][compare]") {
  TempDir d;
  std::string text = record({{4096, around(1, 5)}}).dump();
  CHECK_THROWS_WITH(read_result_file(d.write("t.json", text.substr(0, text.size() / 2))),
                    Catch::Contains("t.json is not a complete JSON result") && Catch::Contains("line 1, column"));
  CHECK_THROWS_WITH(read_result_file(d.write("x.json", "not json")), Catch::Contains("x.json is not a complete JSON"));
  // Found by the fuzzer: a number JSON cannot hold escaped as nlohmann's out_of_range.
  CHECK_THROWS_WITH(read_result_file(d.write("n.json", R"({"schema": 1e99999})")), Catch::Contains("n.json is not a complete JSON"));
  CHECK_THROWS_WITH(read_result_file(d.write("s.json", R"({"schema": "ccbench.result/9"})")),
                    Catch::Contains("unknown schema 'ccbench.result/9'"));
  CHECK_THROWS_WITH(read_result_file(d.write("o.json", "[1, 2]")), Catch::Contains("not a result"));
  json incomplete = record({{4096, around(1, 5)}});
  incomplete["complete"] = false;
  const std::string inc = d.write("i.json", incomplete.dump());
  CHECK_THROWS_WITH(read_result_file(inc), Catch::Contains("incomplete run") && Catch::Contains("--allow-incomplete"));
  CHECK(read_result_file(inc, true).results.size() == 1);
  json missing = record({{4096, around(1, 5)}});
  missing["results"][0].erase("bytes");
  CHECK_THROWS_WITH(read_result_file(d.write("m.json", missing.dump())), Catch::Contains("m.json: a field is missing"));
  CHECK_THROWS_WITH(read_result_file("/dev/zero"), Catch::Contains("not a regular file"));
}

TEST_CASE("the JUnit, Markdown and JSON forms of a comparison", "[judge][compare]") {
  TempDir d;
  json base = record({{4096, around(1, 10)}});
  json slow = record({{4096, around(0.5, 10)}});
  Comparison c = compare(as_file(d, "b.json", base), as_file(d, "n.json", slow), {});
  std::string junit = report::compare_junit(c);
  CHECK_THAT(junit, Catch::Contains("tests=\"1\" failures=\"1\"") && Catch::Contains("<failure message=\"bus bandwidth"));
  CHECK_THAT(report::compare_markdown(c), Catch::Contains("| **regression** |"));
  json j = json::parse(report::compare_json(c));
  CHECK(j["regressions"] == 1);
  CHECK(j["exit_status"] == 1);
  CHECK(report::xml_escape("a<b & \"c\"\x01") == "a&lt;b &amp; &quot;c&quot;");
}

TEST_CASE("a baseline keeps every kept run's passes and drops an outlier run, saying why", "[judge][baseline]") {
  TempDir d;
  std::vector<ResultFile> runs;
  for (double night : {1.0, 1.02, 0.98, 1.01, 0.6}) {
    std::string name = std::to_string(runs.size());
    name += ".json";  // GCC 12 warns falsely on "n" + std::to_string(...) (its bug 105329)
    runs.push_back(as_file(d, name, record({{4096, around(night, 5)}, {1 << 20, around(night * 2, 5)}})));
  }
  Baseline b = make_baseline(runs);
  REQUIRE(b.dropped.size() == 1);
  CHECK_THAT(b.dropped[0].path, Catch::EndsWith("/4.json"));
  CHECK_THAT(b.dropped[0].why, Catch::Contains("40.0% below") && Catch::Contains("limit 3.5"));
  CHECK(b.kept.size() == 4);
  REQUIRE(b.merged.results.size() == 2);
  CHECK(b.merged.results[0].busbw_gbps.size() == 20);  // 4 runs x 5 passes
  // The baseline is a result file compare reads, and a run like the kept ones matches it.
  ResultFile base = read_result_file(d.write("base.json", baseline_json(b)));
  CHECK(base.results[0].busbw_gbps.size() == 20);
  CHECK(compare(base, runs[1], {}).count(Verdict::kRegression) == 0);
  CHECK(compare(base, runs[4], {}).count(Verdict::kRegression) == 2);
  CHECK(json::parse(baseline_json(b))["job"]["baseline"]["dropped"][0]["why"] == b.dropped[0].why);
}

TEST_CASE("a baseline of two runs drops none, and refuses runs that are not comparable", "[judge][baseline]") {
  TempDir d;
  std::vector<ResultFile> two{as_file(d, "a.json", record({{4096, around(1, 3)}})),
                              as_file(d, "b.json", record({{4096, around(0.5, 3)}}))};
  CHECK(make_baseline(two).dropped.empty());
  two.push_back(as_file(d, "c.json", record({{4096, around(1, 3)}}, "Xeon")));
  CHECK_THROWS_WITH(make_baseline(two), Catch::Contains("c.json cannot join a baseline") && Catch::Contains("machine"));
  CHECK_THROWS_AS(make_baseline({}), Error);
}
