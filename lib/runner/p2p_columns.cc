#include "runner/p2p_columns.h"

#include <algorithm>
#include <cstdio>

#include "metrics/latency_stats.h"

namespace ccb {
namespace {

std::string percent(const std::optional<double>& v) {
  if (!v) return "-";
  char b[16];
  std::snprintf(b, sizeof b, "%.1f", *v);
  return b;
}

}  // namespace

std::string bandwidth_header() {
  char line[256];
  std::snprintf(line, sizeof line, "%12s %6s %7s %13s %12s %14s %13s %6s %9s %6s %7s\n", "size", "window", "iters",
                "BW_avg[Gb/s]", "BW_avg[GB/s]", "both_ways[Gb/s]", "MsgRate[Mpps]", "link%", "counter%", "cpu%", "#wrong");
  return line;
}

// algbw is one direction's; busbw counts both where both ways carry data.
std::string bandwidth_row(const SizeResult& r, const RunOptions& o) {
  const double mpps = r.time_us > 0 ? messages_per_call(o) / r.time_us : 0;
  char both[32] = "-";
  if (r.busbw_gbps > r.algbw_gbps) std::snprintf(both, sizeof both, "%.3f", r.busbw_gbps * 8);
  char line[256];
  std::snprintf(line, sizeof line, "%12llu %6d %7d %13.3f %12.3f %14s %13.4f %6s %9s %6.0f %7llu\n",
                static_cast<unsigned long long>(r.bytes), messages_per_call(o), r.iters, r.algbw_gbps * 8, r.algbw_gbps,
                both, mpps, percent(r.link_util_pct).c_str(), percent(r.counter_util_pct).c_str(), r.cpu_pct_mean,
                static_cast<unsigned long long>(r.wrong));
  return line;
}

std::string latency_header() {
  char line[256];
  std::snprintf(line, sizeof line, "%12s %7s %11s %11s %11s %11s %11s %11s %11s %7s\n", "size", "iters", "t_min[us]",
                "t_median", "t_avg", "t_stdev", "t_p99", "t_p99.9", "t_max", "#wrong");
  return line;
}

std::string latency_row(const SizeResult& r) {
  std::vector<double> sorted = r.iter_max_us;
  std::sort(sorted.begin(), sorted.end());
  const LatencyStats& l = r.latency_us;
  const double p999 = percentile_of_sorted(sorted, 99.9);
  char line[256];
  std::snprintf(line, sizeof line, "%12llu %7d %11.2f %11.2f %11.2f %11.2f %11.2f %11.2f %11.2f %7llu\n",
                static_cast<unsigned long long>(r.bytes), r.iters, l.min / 2, l.p50 / 2, l.mean / 2, l.stdev / 2,
                l.p99 / 2, p999 / 2, l.max / 2, static_cast<unsigned long long>(r.wrong));
  return line;
}

}  // namespace ccb
