// Which plots a report holds, from result records alone.
#include <algorithm>
#include <filesystem>
#include <map>

#include "core/units.h"
#include "judge/statistics.h"
#include "report/report.h"

namespace ccb::report {
namespace {

double median_of(const std::vector<double>& v) { return v.empty() ? 0 : judge::summarize_median(v).median; }

Point busbw(const judge::Measured& m, const judge::ResultFile&, bool& ok) {
  ok = !m.busbw_gbps.empty();
  return {static_cast<double>(m.bytes), median_of(m.busbw_gbps), 0, 0};
}

Point latency(const judge::Measured& m, const judge::ResultFile&, bool& ok) {
  ok = !m.p50_us.empty();
  const double p50 = median_of(m.p50_us);
  return {static_cast<double>(m.bytes), p50, p50, median_of(m.p99_us)};
}

Point link_util(const judge::Measured& m, const judge::ResultFile& f, bool& ok) {
  const std::optional<double> rate = m.line_rate_gbps ? m.line_rate_gbps : f.line_rate_gbps;
  ok = rate && *rate > 0 && !m.busbw_gbps.empty();
  return {static_cast<double>(m.bytes), ok ? median_of(m.busbw_gbps) * 8 / *rate * 100 : 0, 0, 0};
}

unsigned verdict_color(judge::Verdict v) {
  switch (v) {
    case judge::Verdict::kRegression: return 0xd62728;
    case judge::Verdict::kImprovement: return 0x2ca02c;
    case judge::Verdict::kUnchanged: return 0x7f7f7f;
    case judge::Verdict::kNotComparable: return 0xc7c7c7;
  }
  return 0;
}

Plot change_plot(const judge::Comparison& c) {
  std::vector<judge::KeyComparison> rows = c.rows;
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
  std::vector<std::string> keys;
  for (const judge::KeyComparison& k : rows) keys.push_back(k.key);
  const std::string shared = shared_words(keys);
  Plot p{.name = "change",
         .title = "Bus bandwidth against the baseline" + (shared.empty() ? "" : ": " + shared),
         .xlabel = "colour: the verdict (a U test at p < alpha, and a change of at least --min-change)",
         .ylabel = "change (%)",
         .log_x = false,
         .x_is_size = false};
  for (const judge::KeyComparison& k : rows) p.bars.push_back({short_key(k.key, shared), k.change * 100, verdict_color(k.verdict)});
  for (judge::Verdict v : {judge::Verdict::kRegression, judge::Verdict::kImprovement, judge::Verdict::kUnchanged, judge::Verdict::kNotComparable})
    p.bar_legend.push_back({std::string(judge::verdict_name(v)), 0, verdict_color(v)});
  return p;
}

}  // namespace

std::string shared_words(const std::vector<std::string>& keys) {
  if (keys.empty()) return {};
  std::string shared = keys.front();
  for (const std::string& k : keys)
    while (!shared.empty() && !(k.rfind(shared, 0) == 0 && (k.size() == shared.size() || k[shared.size()] == ' ')))
      shared.erase(shared.find_last_of(' ') == std::string::npos ? 0 : shared.find_last_of(' '));
  return shared;
}

std::string short_key(const std::string& key, const std::string& shared) {
  std::string rest = key.substr(std::min(key.size(), shared.size() + (shared.empty() ? 0 : 1)));
  // At most 19 digits: every such number fits in 64 bits, so a hostile key cannot throw.
  if (rest.size() > 2 && rest.size() <= 21 && rest.ends_with(" B") && rest.find_first_not_of("0123456789") == rest.size() - 2)
    return short_bytes(std::stoull(rest));
  return rest.empty() ? key : rest;
}

std::vector<Series> series_of(const std::vector<judge::ResultFile>& files, Figure figure, bool band) {
  std::vector<Series> out;
  for (const judge::ResultFile& f : files) {
    std::map<std::string, Series> by_name;  // one series per transport, collective and algorithm
    for (const judge::Measured& m : f.results) {
      bool ok = false;
      Point pt = figure(m, f, ok);
      if (!ok || !m.profile.empty()) continue;  // profiles' entries are no sweep
      const std::string name = (files.size() > 1 ? std::filesystem::path(f.path).filename().string() + ": " : "") +
                               m.transport + " " + m.collective + " " + (m.chosen_by_auto ? "auto" : m.algorithm);
      Series& s = by_name[name];
      s.title = name, s.band = band;
      s.points.push_back(pt);
    }
    for (auto& [name, s] : by_name) {
      std::sort(s.points.begin(), s.points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::vector<Plot> report_plots(const ReportInput& in) {
  std::vector<Plot> plots;
  auto add = [&](Plot p) {
    if (!p.series.empty() || !p.bars.empty() || !p.cells.empty()) plots.push_back(std::move(p));
  };
  add({.name = "busbw", .title = "Bus bandwidth against size (median pass)", .xlabel = "message size",
       .ylabel = "bus bandwidth (GB/s)", .series = series_of(in.files, &busbw, false)});
  add({.name = "latency", .title = "Latency against size: p50 (line), p50 to p99 (band)", .xlabel = "message size",
       .ylabel = "latency (us)", .log_y = true, .series = series_of(in.files, &latency, true)});
  add({.name = "link", .title = "Link utilization against size (bus bandwidth x 8 / line rate)",
       .xlabel = "message size", .ylabel = "link utilization (%)", .series = series_of(in.files, &link_util, false)});
  if (in.comparison) add(change_plot(*in.comparison));
  for (const Plot& p : in.extra_plots) add(p);
  return plots;
}

}  // namespace ccb::report
