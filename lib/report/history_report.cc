#include "report/history_report.h"

#include "report/report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace ccb::report {
namespace {

std::string verdicts(const std::optional<judge::Comparison>& c) {
  if (!c) return "-";
  if (!c->not_comparable.empty()) return "not comparable (" + c->not_comparable.substr(0, c->not_comparable.find(':')) + ")";
  const size_t r = c->count(judge::Verdict::kRegression), i = c->count(judge::Verdict::kImprovement);
  if (r == 0 && i == 0) return "unchanged";
  return std::to_string(r) + " regression(s), " + std::to_string(i) + " improvement(s)";
}

// "!" against the night before, "*" against the baseline, for a regressed key.
std::string marks(const judge::History& h, size_t night, const std::string& key) {
  std::string m;
  for (const auto* c : {&h.vs_previous[night], &h.vs_baseline[night]}) {
    bool regressed = false;
    if (*c)
      for (const judge::KeyComparison& k : (*c)->rows) regressed |= k.key == key && k.verdict == judge::Verdict::kRegression;
    m += regressed ? (c == &h.vs_previous[night] ? "!" : "*") : "";
  }
  return m;
}

// "12-04 08:17": nights of one day stay apart.
std::string night_label(const judge::ResultFile& f) {
  std::string s = f.started_utc.size() >= 16 ? f.started_utc.substr(5, 11) : f.started_utc;
  std::replace(s.begin(), s.end(), 'T', ' ');
  return s;
}

}  // namespace

std::string history_table(const judge::History& h) {
  std::ostringstream out;
  out << "# ccbench history: " << h.dir << ", " << h.nights.size() << " night(s)\n";
  for (const std::string& s : h.skipped) out << "# skipped " << s << ": JSON, but not a result file\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-22s %-32s %-40s %s\n", "started", "file", "against the night before", "against the baseline");
  out << line;
  for (size_t n = 0; n < h.nights.size(); ++n) {
    std::snprintf(line, sizeof line, "%-22s %-32s %-40s %s\n", h.nights[n].started_utc.c_str(),
                  std::filesystem::path(h.nights[n].path).filename().c_str(), verdicts(h.vs_previous[n]).c_str(),
                  verdicts(h.vs_baseline[n]).c_str());
    out << line;
  }
  out << "# bus bandwidth (GB/s, median) per night; ! regressed against the night before, * against the baseline\n";
  for (const std::string& key : h.keys) {
    out << key << ":";
    for (size_t n = 0; n < h.nights.size(); ++n) {
      std::optional<double> v = h.busbw(n, key);
      std::snprintf(line, sizeof line, " %.4g%s", v.value_or(0), v ? marks(h, n, key).c_str() : "?");
      out << (v ? line : " -");
    }
    out << "\n";
  }
  out << "# the latest night " << (h.latest_regressed() ? "regressed" : "did not regress") << "\n";
  return out.str();
}

std::string history_verdict(const judge::History& h) {
  const std::string latest = std::filesystem::path(h.nights.back().path).filename().string();
  if (!h.latest_regressed())
    return "history: PASS: the latest night (" + latest + ") did not regress, " + std::to_string(h.nights.size()) + " night(s)";
  std::string against;
  if (h.vs_previous.back() && h.vs_previous.back()->count(judge::Verdict::kRegression)) against = "the night before";
  if (!h.vs_baseline.empty() && h.vs_baseline.back() && h.vs_baseline.back()->count(judge::Verdict::kRegression))
    against += std::string(against.empty() ? "" : " and ") + "the baseline";
  return "history: FAIL: the latest night (" + latest + ") regressed against " + against;
}

std::string history_html(const judge::History& h) {
  const size_t shown = std::min(h.keys.size(), kMaxTrendSeries);
  const std::string shared = shared_words(h.keys);
  std::ostringstream out;
  out << "<h2>Nights</h2>\n<table id=\"nights\"><tr><th>started (UTC)</th><th>file</th><th>against the night before</th>"
         "<th>against the baseline</th>";
  for (size_t k = 0; k < shown; ++k) out << "<th>" << html_escape(short_key(h.keys[k], shared)) << " GB/s</th>";
  out << "</tr>\n";
  for (size_t n = 0; n < h.nights.size(); ++n) {
    const bool regressed = (h.vs_previous[n] && h.vs_previous[n]->count(judge::Verdict::kRegression)) ||
                           (n < h.vs_baseline.size() && h.vs_baseline[n] && h.vs_baseline[n]->count(judge::Verdict::kRegression));
    out << "<tr class=\"" << (regressed ? "regression" : "") << "\"><td class=\"key\">" << html_escape(h.nights[n].started_utc)
        << "</td><td class=\"key\">" << html_escape(std::filesystem::path(h.nights[n].path).filename().string())
        << "</td><td class=\"key\">" << html_escape(verdicts(h.vs_previous[n])) << "</td><td class=\"key\">"
        << html_escape(n < h.vs_baseline.size() ? verdicts(h.vs_baseline[n]) : "-") << "</td>";
    for (size_t k = 0; k < shown; ++k) {
      char cell[48] = "-";
      if (std::optional<double> v = h.busbw(n, h.keys[k])) std::snprintf(cell, sizeof cell, "%.4g%s", *v, marks(h, n, h.keys[k]).c_str());
      out << "<td>" << cell << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n<p>" << (shared.empty() ? "" : html_escape(shared) + ": ")
      << "bus bandwidth, median pass; ! regressed against the night before, * against the baseline.</p>\n";
  return out.str();
}

Plot trend_plot(const judge::History& h) {
  const std::string shared = shared_words(h.keys);
  Plot p{.name = "trend", .title = "Bus bandwidth per night (median pass)" + (shared.empty() ? "" : ": " + shared),
         .xlabel = "night (start time, UTC)", .ylabel = "bus bandwidth (GB/s)", .log_x = false, .x_is_size = false};
  for (size_t n = 0; n < h.nights.size(); ++n) p.x_tics.emplace_back(static_cast<double>(n + 1), night_label(h.nights[n]));
  for (size_t k = 0; k < h.keys.size() && k < kMaxTrendSeries; ++k) {
    Series s{short_key(h.keys[k], shared), {}, false};
    for (size_t n = 0; n < h.nights.size(); ++n)
      if (std::optional<double> v = h.busbw(n, h.keys[k])) s.points.push_back({static_cast<double>(n + 1), *v, 0, 0});
    p.series.push_back(std::move(s));
  }
  return p;
}

}  // namespace ccb::report
