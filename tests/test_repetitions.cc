// Repetitions (--repeat, --shuffle, --samples): the order of each pass, measurements
// grouped by key with their passes, and how schema 2 records them.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "runner/measurement_set.h"
#include "runner/pass_order.h"
#include "runner/result_record.h"

using namespace ccb;
using nlohmann::json;

namespace {

ResultRow pass_of(uint64_t bytes, double busbw, uint64_t wrong = 0) {
  ResultRow row;
  row.result.bytes = bytes;
  row.result.count = bytes / 4;
  row.result.busbw_gbps = busbw;
  row.result.time_us = 1000 / busbw;
  row.result.wrong = wrong;
  row.result.iter_max_us = {1, 2, 3};
  return row;
}

}  // namespace

TEST_CASE("a shuffled pass order is a permutation, the same for a seed, new each pass", "[repeat]") {
  CHECK(PassOrder().indices(4, 3) == std::vector<size_t>{0, 1, 2, 3});
  PassOrder a(42), b(42), c(43);
  std::set<std::vector<size_t>> orders;
  for (int pass = 0; pass < 5; ++pass) {
    auto o = a.indices(12, pass);
    CHECK(o == b.indices(12, pass));
    CHECK(std::set<size_t>(o.begin(), o.end()).size() == 12);
    orders.insert(o);
  }
  CHECK(orders.size() == 5);
  CHECK(a.indices(12, 0) != c.indices(12, 0));
  CHECK(a.seed() == 42u);
}

TEST_CASE("passes of one key are one measurement; its median pass is a real pass", "[repeat]") {
  MeasurementSet set;
  for (double bw : {3.0, 1.0, 4.0, 2.0}) set.add(pass_of(1 << 20, bw));
  set.add(pass_of(1 << 10, 9.0, 2));
  ResultRow tree = pass_of(1 << 20, 5.0);
  tree.options.algorithm = Algorithm::kTree;
  set.add(tree);
  REQUIRE(set.measurements().size() == 3);
  const auto& m = set.measurements()[0];
  CHECK(m.passes.size() == 4);
  CHECK(m.median_pass().busbw_gbps == 2.0);  // the lower middle of 1, 2, 3, 4
  CHECK(m.busbw().median == 2.0);  // one median everywhere: the same pass
  CHECK(set.measurements()[1].wrong() == 2);
  StepSummary step{"profile", "llama2-7b:ddp", "", "ring", 10.0, 1, 1, {}};
  set.add(step);
  step.comm_us = 30.0;
  set.add(step);
  step.comm_us = 20.0;
  const auto& s = set.add(step);
  CHECK(s.passes_us == std::vector<double>{10, 30, 20});
  CHECK(s.summary.comm_us == 20.0);
}

TEST_CASE("schema 2 keeps each pass, their summary, and the median pass where schema 1 had it", "[repeat][record]") {
  JobInfo job;
  job.repeat = 3;
  job.shuffle_seed = 7;
  job.samples = true;
  ResultRecord rec(job, "", "");
  for (double bw : {2.0, 6.0, 4.0}) rec.add(pass_of(4096, bw, bw == 6.0 ? 1 : 0));
  json j = json::parse(rec.json_text());
  CHECK(j["schema"] == "ccbench.result/2");
  CHECK(j["job"]["repeat"] == 3);
  CHECK(j["job"]["shuffle_seed"] == 7);
  REQUIRE(j["results"].size() == 1);
  const json& r = j["results"][0];
  CHECK(r["busbw_gbps"] == 4.0);  // schema 1's field: the median pass
  CHECK(r["wrong"] == 1);         // over every pass
  REQUIRE(r["passes"].size() == 3);
  CHECK(r["passes"][1]["busbw_gbps"] == 6.0);
  CHECK(r["passes"][0]["samples_us"] == json::array({1, 2, 3}));
  CHECK(r["summary"]["passes"] == 3);
  CHECK(r["summary"]["busbw_gbps"]["median"] == 4.0);
  CHECK(r["summary"]["busbw_gbps"]["min"] == 2.0);
  CHECK(r["summary"]["busbw_gbps"]["max"] == 6.0);
  CHECK(r["summary"]["busbw_gbps"]["ci_coverage"] == Approx(0.75));  // 3 passes: [min, max]
  std::string csv = rec.csv_text();
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 2);  // a header and one row per measurement
  CHECK_THAT(csv, Catch::Contains(",3,2,6,2,6\n"));
}
