// The result files perf labs parse: the JSON schema, the CSV columns, and atomic
// rewrites that keep every size measured before a run dies.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/files.h"
#include "runner/result_record.h"

using namespace ccb;
using nlohmann::json;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

JobInfo sample_job() {
  JobInfo j;
  j.command = {"ccbench", "run", "--np", "2"};
  j.machine = probe_machine();
  j.ranks = 2;
  j.bootstrap = "store";
  j.transport = "tcp";
  j.transport_settings = "tcp streams=1";
  j.link.nic = "lo";
  j.line_rate_gbps = 100;
  j.line_rate_source = "--line-rate";
  j.isa = "avx2";
  j.started_utc = utc_now_iso8601();
  return j;
}

ResultRow sample_row(uint64_t bytes, bool with_counter) {
  ResultRow row;
  row.options.dtype = DataType::kBF16;
  row.result.bytes = bytes;
  row.result.count = bytes / 2;
  row.result.iters = 3;
  row.result.time_us = 100;
  row.result.busbw_gbps = row.result.algbw_gbps = static_cast<double>(bytes) / 1e5;
  row.result.latency_us = summarize_latency({90, 100, 110});
  row.result.line_rate_gbps = 100;
  row.result.link_util_pct = 12.5;
  if (with_counter) {
    row.result.counter = CounterRate{1.5, 1000, 0.5, {{0, 1000}}};
    row.result.counter_util_pct = 12.0;
  }
  row.result.rank_mean_us = {95, 100};
  return row;
}

std::string temp_path(const char* name) { return "/tmp/ccb-test-" + std::to_string(getpid()) + "-" + name; }

}  // namespace

TEST_CASE("the JSON record: schema, job, machine, one object per size, steps", "[record]") {
  const std::string path = temp_path("r.json");
  ResultRecord rec(sample_job(), path, "");
  json j = json::parse(slurp(path));  // written before any size is measured
  CHECK(j["schema"] == kResultSchema);
  CHECK(j["complete"] == false);
  CHECK(j["results"].empty());

  rec.add(sample_row(1 << 20, true));
  rec.add(sample_row(64 << 20, false));
  rec.add(StepSummary{"profile", "llama2-7b:tp", "summary", "ring", 1234.5, 128, 4ull << 30, {}});
  j = json::parse(slurp(path));
  CHECK(j["complete"] == false);  // a run that dies here still has both sizes
  REQUIRE(j["results"].size() == 2);
  rec.finish(true);
  j = json::parse(slurp(path));
  CHECK(j["complete"] == true);

  const json& job = j["job"];
  for (const char* key : {"command", "started_utc", "machine", "ranks", "bootstrap", "transport", "nic",
                          "line_rate_gbps", "line_rate_source", "reduce_isa"})
    CHECK(job.contains(key));
  CHECK(job["machine"]["kernel"].is_string());
  CHECK(job["machine"]["cpus"].get<int>() > 0);
  CHECK_FALSE(j.dump().find("PATH=") != std::string::npos);  // no environment dump

  const json& r = j["results"][0];
  CHECK(r["bytes"] == 1 << 20);
  CHECK(r["dtype"] == "bfloat16");
  for (const char* key : {"min", "p50", "p95", "p99", "max", "mean", "stdev", "cv"}) CHECK(r["latency_us"][key].is_number());
  CHECK(r["latency_us"]["p50"] == 100.0);
  CHECK(r["cpu_pct"]["per_rank"].is_array());
  CHECK(r["link_util_pct"] == 12.5);
  CHECK(r["nic_counter"]["util_pct"] == 12.0);
  CHECK(j["results"][1]["nic_counter"].is_null());  // no counter: null, never a made-up 0
  CHECK(j["steps"][0]["comm_us"] == 1234.5);
  unlink(path.c_str());
}

TEST_CASE("the CSV record: a header and one row per size, same number of columns", "[record]") {
  const std::string path = temp_path("r.csv");
  {
    ResultRecord rec(sample_job(), "", path);
    ResultRow row = sample_row(4096, true);
    row.profile = "llama2-7b:ddp";
    row.what = "gradient bucket";
    row.count_per_step = 96;
    rec.add(row);
  }
  std::istringstream in(slurp(path));
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  auto columns = [](const std::string& s) { return std::count(s.begin(), s.end(), ',') + 1; };
  CHECK(header.rfind("host,transport,ranks,collective", 0) == 0);
  CHECK(columns(header) == columns(line));
  CHECK_THAT(line, Catch::Contains(",llama2-7b:ddp,gradient bucket,96,4096,"));
  unlink(path.c_str());
}

TEST_CASE("an unwritable result path fails at once, naming the file", "[record]") {
  CHECK_THROWS_WITH(ResultRecord(sample_job(), "/nonexistent-dir/r.json", ""),
                    Catch::Contains("/nonexistent-dir/r.json") && Catch::Contains("does not exist"));
  CHECK_THROWS_AS(write_file_atomically("/nonexistent-dir/x", "x"), Error);
}
