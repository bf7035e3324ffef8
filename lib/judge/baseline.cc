#include "judge/baseline.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "judge/compare.h"
#include "judge/statistics.h"

namespace ccb::judge {
namespace {

using nlohmann::ordered_json;

double median_of(std::vector<double> v) { return summarize_median(std::move(v)).median; }

// Per run: the mean over its keys of log(its median / all runs' median for the key).
std::vector<double> log_scores(const std::vector<ResultFile>& runs, size_t& keys_used) {
  std::map<std::string, std::vector<double>> per_key;
  for (const ResultFile& r : runs)
    for (const Measured& m : r.results)
      if (!m.busbw_gbps.empty()) per_key[m.key].push_back(median_of(m.busbw_gbps));
  std::vector<double> scores;
  for (const ResultFile& r : runs) {
    double sum = 0;
    size_t n = 0;
    for (const Measured& m : r.results) {
      const double mine = m.busbw_gbps.empty() ? 0 : median_of(m.busbw_gbps), all = median_of(per_key[m.key]);
      if (mine <= 0 || all <= 0) continue;
      sum += std::log(mine / all);
      ++n;
    }
    scores.push_back(n ? sum / static_cast<double>(n) : 0);
    keys_used = std::max(keys_used, n);
  }
  return scores;
}

std::string outlier_reason(double log_score, double z, size_t keys) {
  char b[200];
  const double pct = std::expm1(log_score) * 100;
  std::snprintf(b, sizeof b, "bus bandwidth %.1f%% %s the runs' median over %zu keys (modified z %+.2f, limit %.1f)",
                std::abs(pct), pct < 0 ? "below" : "above", keys, z, kOutlierZ);
  return b;
}

void append_passes(Measured& into, const Measured& from) {
  for (auto [to, src] : {std::pair{&into.busbw_gbps, &from.busbw_gbps}, {&into.time_us, &from.time_us},
                         {&into.p50_us, &from.p50_us}, {&into.p99_us, &from.p99_us}})
    to->insert(to->end(), src->begin(), src->end());
  into.wrong += from.wrong;
}

ordered_json measured_json(const Measured& m) {
  ordered_json passes = ordered_json::array();
  for (size_t i = 0; i < m.busbw_gbps.size(); ++i)
    passes.push_back({{"busbw_gbps", m.busbw_gbps[i]}, {"time_us", m.time_us[i]},
                      {"latency_us", {{"p50", m.p50_us[i]}, {"p99", m.p99_us[i]}}}});
  auto summary = [](const std::vector<double>& v) {
    MedianSummary s = summarize_median(v);
    return ordered_json{{"median", s.median}, {"min", s.min}, {"max", s.max}, {"ci95_low", s.ci_low},
                        {"ci95_high", s.ci_high}, {"ci_coverage", s.ci_coverage}};
  };
  ordered_json j{{"collective", m.collective}, {"algorithm", m.algorithm}, {"dtype", m.dtype}, {"op", m.op},
                 {"in_place", m.in_place}, {"bytes", m.bytes}, {"time_us", median_of(m.time_us)},
                 {"busbw_gbps", median_of(m.busbw_gbps)},
                 {"latency_us", {{"p50", median_of(m.p50_us)}, {"p99", median_of(m.p99_us)}}}, {"wrong", m.wrong}};
  if (!m.profile.empty()) {
    j["profile"] = m.profile;
    j["what"] = m.what;
    j["step_algorithm"] = m.step_algorithm;
  }
  j["passes"] = passes;
  j["summary"] = {{"passes", m.busbw_gbps.size()}, {"busbw_gbps", summary(m.busbw_gbps)}, {"time_us", summary(m.time_us)},
                  {"p50_us", summary(m.p50_us)}, {"p99_us", summary(m.p99_us)}};
  return j;
}

}  // namespace

Baseline make_baseline(const std::vector<ResultFile>& runs) {
  if (runs.empty()) throw_invalid("a baseline needs at least one run");
  for (const ResultFile& r : runs)
    if (!r.schema.starts_with("ccbench.result/"))
      throw_invalid(r.path + " is Google Benchmark JSON: a baseline merges ccbench result files (ccbench run "
                             "--json); compare bench_collectives' JSON with ccbench compare directly");
  for (size_t i = 1; i < runs.size(); ++i)
    if (std::string why = incomparable_field(runs[0], runs[i]); !why.empty())
      throw_invalid(runs[i].path + " cannot join a baseline with " + runs[0].path + ": " + why);
  Baseline b;
  size_t keys = 0;
  const std::vector<double> scores = log_scores(runs, keys);
  const double center = median_of(scores);
  std::vector<double> deviations;
  for (double s : scores) deviations.push_back(std::abs(s - center));
  const double mad = median_of(deviations);
  for (size_t i = 0; i < runs.size(); ++i) {
    const double z = mad > 0 ? 0.6745 * (scores[i] - center) / mad : 0;
    if (runs.size() >= 3 && std::abs(z) > kOutlierZ) {
      b.dropped.push_back({runs[i].path, outlier_reason(scores[i] - center, z, keys)});
      continue;
    }
    b.kept.push_back(runs[i].path);
    if (b.kept.size() == 1) {
      b.merged = runs[i];
      continue;
    }
    for (const Measured& m : runs[i].results) {
      auto it = std::find_if(b.merged.results.begin(), b.merged.results.end(),
                             [&](const Measured& x) { return x.key == m.key; });
      if (it == b.merged.results.end()) b.merged.results.push_back(m);
      else append_passes(*it, m);
    }
  }
  return b;
}

std::string baseline_json(const Baseline& b) {
  ordered_json job = b.merged.raw_job.empty() ? ordered_json::object() : ordered_json::parse(b.merged.raw_job);
  ordered_json dropped = ordered_json::array();
  for (const DroppedRun& d : b.dropped) dropped.push_back({{"path", d.path}, {"why", d.why}});
  job["baseline"] = {{"runs", b.kept},
                     {"dropped", dropped},
                     {"rule", "runs scored by the geometric mean of their median bus bandwidth over the runs' "
                              "median per key; dropped when the log score's modified z-score exceeds 3.5 (MAD)"}};
  ordered_json results = ordered_json::array();
  for (const Measured& m : b.merged.results) results.push_back(measured_json(m));
  ordered_json j{{"schema", "ccbench.result/2"}, {"complete", true}, {"job", job}, {"results", results},
                 {"steps", ordered_json::array()}};
  return j.dump(2) + "\n";
}

}  // namespace ccb::judge
