// Reports and history: what gnuplot is asked to draw (text that could break its script
// is quoted), pages written even when gnuplot is missing, and nights judged in order.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "judge/history.h"
#include "report/history_report.h"
#include "report/plot.h"
#include "report/report.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::report;
using nlohmann::json;

namespace {

judge::Measured measured(uint64_t bytes, double busbw) {
  judge::Measured m;
  m.collective = "allreduce", m.algorithm = "ring", m.transport = "tcp", m.dtype = "float", m.op = "sum";
  m.bytes = bytes;
  m.busbw_gbps = {busbw, busbw};
  m.p50_us = {10, 10};
  m.p99_us = {20, 20};
  m.key = "allreduce ring tcp float sum 2 ranks " + std::to_string(bytes) + " B";
  return m;
}

json night(const std::string& started, double busbw) {
  json passes = json::array();
  for (int i = 0; i < 6; ++i)
    passes.push_back({{"busbw_gbps", busbw * (1 + 0.001 * i)}, {"time_us", 100.0}, {"latency_us", {{"p50", 1.0}, {"p99", 2.0}}}});
  return {{"schema", "ccbench.result/2"}, {"complete", true},
          {"job", {{"started_utc", started}, {"machine", {{"cpu", "EPYC"}, {"cpus", 2}}}, {"ranks", 2},
                   {"transport", {{"name", "tcp"}, {"settings", "tcp"}}}, {"line_rate_gbps", nullptr}}},
          {"results", json::array({{{"collective", "allreduce"}, {"algorithm", "ring"}, {"dtype", "float"}, {"op", "sum"},
                                    {"bytes", 1048576}, {"passes", passes}}})}};
}

}  // namespace

TEST_CASE("the gnuplot script quotes what it is given and draws bars from zero", "[report]") {
  Plot p{.name = "x", .title = "it's \"quoted\"\nnext", .ylabel = "y"};
  p.series.push_back({"a'b", {{1024, 1, 0, 0}, {1048576, 2, 0, 0}}, false});
  std::string s = gnuplot_script(p, "p.svg", "p.png");
  CHECK_THAT(s, Catch::Contains("set title 'it''s \"quoted\"next'"));
  CHECK_THAT(s, Catch::Contains("title 'a''b'"));
  CHECK_THAT(s, Catch::Contains("set xtics ('1K' 1024, '1M' 1048576)"));
  Plot close{.name = "c"};
  close.series.push_back({"buckets", {{1e6, 1, 0, 0}, {1.2e6, 1, 0, 0}, {2e6, 1, 0, 0}}, false});
  CHECK_THAT(gnuplot_script(close, "c.svg", "c.png"), Catch::Contains("'' 1200000"));  // too close to label
  CHECK_THAT(s, Catch::Contains("noenhanced"));
  Plot bars{.name = "b", .x_is_size = false};
  bars.bars = {{"64K", -20, 0xd62728}, {"1 \"M\"", -5, 0x7f7f7f}};
  std::string b = gnuplot_script(bars, "b.svg", "b.png");
  CHECK_THAT(b, Catch::Contains("\"1 'M'\" -5 8355711"));
  CHECK_THAT(b, Catch::Contains("set yrange [-22:0]"));
  bars.bars = {{"64K", 0, 0x7f7f7f}};  // a run against itself: no change anywhere
  CHECK_THAT(gnuplot_script(bars, "b.svg", "b.png"), Catch::Contains("set yrange [-1:1]"));
}

TEST_CASE("keys are shortened by the words they share", "[report]") {
  std::vector<std::string> keys{"allreduce ring tcp float sum 2 ranks 65536 B", "allreduce ring tcp float sum 2 ranks 1048576 B"};
  const std::string shared = shared_words(keys);
  CHECK(shared == "allreduce ring tcp float sum 2 ranks");
  CHECK(short_key(keys[1], shared) == "1M");
  // A size too long for 64 bits, as a hostile result file could name one, stays as written.
  CHECK(short_key("allreduce 99999999999999999999999 B", "allreduce") == "99999999999999999999999 B");
  CHECK(shared_words({"a b", "ab c"}).empty());  // words, not characters
}

TEST_CASE("without gnuplot the pages are still written, saying why there are no plots", "[report]") {
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);
  ReportInput in;
  judge::ResultFile f;
  f.path = "r.json";
  f.results = {measured(1 << 20, 1.0)};
  in.files = {f};
  ReportOutput out = build_report(in);
  setenv("PATH", path.c_str(), 1);
  CHECK_THAT(out.plot_error, Catch::Contains("gnuplot is not installed"));
  CHECK(out.files.empty());
  CHECK_THAT(out.html, Catch::Contains("No plots: gnuplot is not installed") && Catch::Contains("id=\"results\""));
  CHECK_THAT(out.markdown, Catch::Contains("No plots"));
  CHECK(report_plots(in).size() == 2);  // bus bandwidth and latency; no line rate, no utilization
}

TEST_CASE("a history orders nights by start time, skips what is not a result, flags a fall", "[report][history]") {
  test::TempDir tmp;
  const std::string dir = tmp.path;
  std::ofstream(dir + "/b.json") << night("2026-12-02T02:00:00Z", 1.0).dump();
  std::ofstream(dir + "/a.json") << night("2026-12-03T02:00:00Z", 1.0).dump();
  std::ofstream(dir + "/c.json") << night("2026-12-01T02:00:00Z", 1.0).dump();
  std::ofstream(dir + "/compare.json") << R"({"schema": "ccbench.compare/1"})";
  judge::History h = judge::read_history(dir, nullptr, {});
  REQUIRE(h.nights.size() == 3);
  CHECK_THAT(h.nights[0].path, Catch::EndsWith("c.json"));
  CHECK(h.skipped.size() == 1);
  CHECK_FALSE(h.latest_regressed());
  std::ofstream(dir + "/d.json") << night("2026-12-04T02:00:00Z", 0.7).dump();
  h = judge::read_history(dir, nullptr, {});
  CHECK(h.latest_regressed());
  std::string table = history_table(h);
  CHECK_THAT(table, Catch::Contains("1 regression(s)") && Catch::Contains("0.7014!"));  // the lower middle pass (one median everywhere)
  Plot trend = trend_plot(h);
  CHECK(trend.series.size() == 1);
  CHECK(trend.series[0].points.size() == 4);
  CHECK(trend.x_tics[3].second == "12-04 02:00");
  std::ofstream(dir + "/e.json") << "{\"schema\": \"ccbench.result/2\", \"comp";
  CHECK_THROWS_WITH(judge::read_history(dir, nullptr, {}), Catch::Contains("e.json is not a complete JSON result"));
}
