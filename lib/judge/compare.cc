#include "judge/compare.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "judge/statistics.h"

namespace ccb::judge {
namespace {

double median_of(const std::vector<double>& v) { return v.empty() ? 0 : summarize_median(v).median; }

std::string rate(const std::optional<double>& g) {
  if (!g) return "none";
  std::ostringstream s;
  s << *g << " Gbit/s";
  return s.str();
}

const Measured* find(const ResultFile& f, const std::string& key) {
  for (const Measured& m : f.results)
    if (m.key == key) return &m;
  return nullptr;
}

// Tests one key; `why_not` (file-level) leaves it untested.
KeyComparison compare_key(const Measured& b, const Measured& n, const CompareOptions& o, const std::string& why_not) {
  KeyComparison k;
  k.key = b.key;
  k.bytes = b.bytes;
  k.base_busbw = median_of(b.busbw_gbps), k.new_busbw = median_of(n.busbw_gbps);
  k.base_p50 = median_of(b.p50_us), k.new_p50 = median_of(n.p50_us);
  k.base_p99 = median_of(b.p99_us), k.new_p99 = median_of(n.p99_us);
  k.base_n = b.busbw_gbps.size(), k.new_n = n.busbw_gbps.size();
  k.change = k.base_busbw > 0 ? k.new_busbw / k.base_busbw - 1 : median_of(b.time_us) / median_of(n.time_us) - 1;
  if (!why_not.empty()) {
    k.note = "not comparable: " + why_not;
    return k;
  }
  if (n.wrong > 0) {  // wrong results are broken, whatever the speed
    k.verdict = Verdict::kRegression;
    k.note = std::to_string(n.wrong) + " wrong elements in the new run";
    return k;
  }
  UTest t;
  if (k.base_n >= 2 && k.new_n >= 2) {
    t = mann_whitney_u(b.busbw_gbps, n.busbw_gbps);
    k.test = "passes";
  } else if (!b.samples_us.empty() && !n.samples_us.empty()) {
    t = mann_whitney_u(b.samples_us, n.samples_us);
    k.test = "samples";
    k.base_n = b.samples_us.size(), k.new_n = n.samples_us.size();
    k.change = median_of(b.samples_us) / median_of(n.samples_us) - 1;
    k.note = "one pass each: tested on per-iteration times, which are not independent (a weaker test; use --repeat)";
  } else {
    k.note = "not comparable: one pass and no samples on a side (run both with --repeat N, or --samples)";
    return k;
  }
  k.p = t.p;
  const bool significant = t.p < o.alpha && std::abs(k.change) >= o.min_change;
  k.verdict = !significant ? Verdict::kUnchanged : k.change < 0 ? Verdict::kRegression : Verdict::kImprovement;
  return k;
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kRegression: return "regression";
    case Verdict::kImprovement: return "improvement";
    case Verdict::kUnchanged: return "unchanged";
    case Verdict::kNotComparable: return "not comparable";
  }
  return "?";
}

size_t Comparison::count(Verdict v) const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [v](const KeyComparison& k) { return k.verdict == v; }));
}

int Comparison::exit_status() const { return count(Verdict::kRegression) > 0 || tested == 0 ? 1 : 0; }

std::string Comparison::closing_line() const {
  const size_t regressions = count(Verdict::kRegression);
  if (regressions > 0)
    return "compare: FAIL: " + std::to_string(regressions) + " regression(s) in " + std::to_string(rows.size()) + " key(s)";
  if (tested > 0) return "compare: PASS: no regression in " + std::to_string(tested) + " tested key(s)";
  std::string why = "no key is in both files";
  if (!not_comparable.empty()) why = "the files are not comparable, " + not_comparable;
  else if (!rows.empty()) why = rows.front().note;
  constexpr std::string_view prefix = "not comparable: ";
  if (why.starts_with(prefix)) why = "not comparable, " + why.substr(prefix.size());
  return "compare: FAIL: nothing could be judged: " + why;
}

std::string incomparable_field(const ResultFile& a, const ResultFile& b) {
  auto family = [](const ResultFile& f) { return f.schema.starts_with("ccbench.result/") ? "ccbench" : f.schema; };
  if (family(a) != family(b)) return "schema: " + a.schema + " vs " + b.schema;
  if (a.machine != b.machine) return "machine: '" + a.machine + "' vs '" + b.machine + "'";
  if (a.transport_settings != b.transport_settings)
    return "transport settings: '" + a.transport_settings + "' vs '" + b.transport_settings + "'";
  if (a.memory != b.memory) return "memory space: " + a.memory + " vs " + b.memory;
  if (a.line_rate_gbps != b.line_rate_gbps) return "line rate: " + rate(a.line_rate_gbps) + " vs " + rate(b.line_rate_gbps);
  return {};
}

Comparison compare(const ResultFile& base, const ResultFile& next, const CompareOptions& o) {
  Comparison c;
  c.base_path = base.path, c.new_path = next.path;
  c.not_comparable = incomparable_field(base, next);
  c.warnings = base.warnings;
  c.warnings.insert(c.warnings.end(), next.warnings.begin(), next.warnings.end());
  double log_sum = 0;
  for (const Measured& b : base.results) {
    const Measured* n = find(next, b.key);
    if (!n) {
      c.only_base.push_back(b.key);
      continue;
    }
    KeyComparison k = compare_key(b, *n, o, c.not_comparable);
    if (k.p) {
      ++c.tested;
      log_sum += std::log1p(k.change);
    }
    c.rows.push_back(std::move(k));
  }
  for (const Measured& n : next.results)
    if (!find(base, n.key)) c.only_new.push_back(n.key);
  c.geomean_change = c.tested ? std::expm1(log_sum / static_cast<double>(c.tested)) : 0;
  return c;
}

}  // namespace ccb::judge
