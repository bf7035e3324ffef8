#include "runner/rank_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "core/error.h"

namespace ccb {

using nlohmann::json;

std::optional<uint64_t> nic_bytes_sent(const LinkInfo& link) {
  auto v = read_counter(link.tx_counter);
  if (v) *v *= link.tx_counter_unit;
  return v;
}

std::string nic_counter_key(const LinkInfo& link) { return counter_scope() + link.tx_counter; }

std::string encode_report(const RankReport& r) {
  json j{{"iter_us", r.iter_us}, {"window_s", r.window_s}, {"cpu_pct", r.cpu_pct}, {"wrong", r.wrong},
         {"counter_key", r.counter.key}, {"counter_bytes", r.counter.delta_bytes}, {"hop_in_us", r.hop_in_us}};
  return j.dump();
}

RankReport decode_report(const std::string& bytes) {
  try {
    json j = json::parse(bytes);
    RankReport r;
    j.at("iter_us").get_to(r.iter_us);
    j.at("window_s").get_to(r.window_s);
    j.at("cpu_pct").get_to(r.cpu_pct);
    j.at("wrong").get_to(r.wrong);
    j.at("counter_key").get_to(r.counter.key);
    j.at("counter_bytes").get_to(r.counter.delta_bytes);
    j.at("hop_in_us").get_to(r.hop_in_us);
    r.counter.window_s = r.window_s;
    return r;
  } catch (const json::exception& e) {
    throw Error(ErrorKind::kProtocol, std::string("a rank sent a malformed measurement report: ") + e.what());
  }
}

CombinedReport combine_reports(const std::vector<RankReport>& ranks) {
  CombinedReport c;
  std::vector<CounterReading> counters;
  for (const RankReport& r : ranks) {
    if (c.iter_max_us.size() < r.iter_us.size()) c.iter_max_us.resize(r.iter_us.size(), 0);
    for (size_t i = 0; i < r.iter_us.size(); ++i) c.iter_max_us[i] = std::max(c.iter_max_us[i], r.iter_us[i]);
    double mean = r.iter_us.empty() ? 0 : std::accumulate(r.iter_us.begin(), r.iter_us.end(), 0.0) / static_cast<double>(r.iter_us.size());
    c.rank_mean_us.push_back(mean);
    c.rank_p50_us.push_back(summarize_latency(r.iter_us).p50);
    c.hop_in_us.push_back(r.hop_in_us);
    c.time_us = std::max(c.time_us, mean);
    c.rank_cpu_pct.push_back(r.cpu_pct);
    c.cpu_pct_max = std::max(c.cpu_pct_max, r.cpu_pct);
    c.wrong += r.wrong;
    counters.push_back(r.counter);
  }
  if (!ranks.empty())
    c.cpu_pct_mean = std::accumulate(c.rank_cpu_pct.begin(), c.rank_cpu_pct.end(), 0.0) / static_cast<double>(ranks.size());
  c.latency_us = summarize_latency(c.iter_max_us);
  c.counter = combine_counters(counters);
  return c;
}

CombinedReport exchange_reports(Bootstrap& b, const RankReport& mine) {
  std::vector<RankReport> all;
  for (const std::string& s : b.allgather(encode_report(mine))) all.push_back(decode_report(s));
  return combine_reports(all);
}

}  // namespace ccb
