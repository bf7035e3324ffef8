#include "metrics/latency_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ccb {

double percentile_of_sorted(const std::vector<double>& sorted, double pct) {
  if (sorted.empty()) return 0;
  double pos = pct / 100.0 * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

LatencyStats summarize_latency(std::vector<double> v) {
  LatencyStats s;
  s.samples = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.p50 = percentile_of_sorted(v, 50);
  s.p95 = percentile_of_sorted(v, 95);
  s.p99 = percentile_of_sorted(v, 99);
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(ss / static_cast<double>(v.size() - 1));
  }
  s.cv = s.mean > 0 ? s.stdev / s.mean : 0;
  return s;
}

}  // namespace ccb
