// Summary statistics of one size's per-iteration times.
#pragma once
#include <cstddef>
#include <vector>

namespace ccb {

struct LatencyStats {
  size_t samples = 0;
  double min = 0, p50 = 0, p95 = 0, p99 = 0, max = 0;
  double mean = 0;
  double stdev = 0;  // sample standard deviation (n - 1); 0 for one sample
  double cv = 0;     // stdev / mean: the run-to-run noise, comparable across sizes
};

// Percentiles interpolate linearly between closest ranks (numpy's default), so p99 of
// 20 samples is not simply the largest. Empty input gives all zeros.
LatencyStats summarize_latency(std::vector<double> samples);
double percentile_of_sorted(const std::vector<double>& sorted, double pct);

}  // namespace ccb
