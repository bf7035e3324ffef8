#include "runner/result_table.h"

#include <cstdio>
#include <numeric>

#include "runner/p2p_columns.h"

namespace ccb {

void ResultTable::header(const std::string& title, bool profile, bool repeated, TableColumns columns) {
  profile_ = profile;
  repeated_ = repeated;
  columns_ = columns;
  busbw_.clear();
  wrong_ = 0;
  if (columns != TableColumns::kCollective) {
    out_ << "#\n# " << title << "\n#\n"
         << (columns == TableColumns::kBandwidth ? bandwidth_header() : latency_header()) << std::flush;
    return;
  }
  char line[320];
  int n = profile ? std::snprintf(line, sizeof line, "%15s %6s ", "collective", "calls") : 0;
  std::snprintf(line + n, sizeof line - static_cast<size_t>(n),
                "%12s %12s %9s %7s %5s %12s %11s %11s %11s %6s %6s %7s%s\n", "size", "count", "type", "redop", "algo",
                "time_us", "algbw_GBps", "busbw_GBps", "p99_us", "link%", "cpu%", "#wrong",
                repeated ? " passes spread%" : "");
  out_ << "#\n# " << title << "\n#\n" << line << std::flush;
}

static std::string percent(const std::optional<double>& v) {
  if (!v) return "-";
  char b[16];
  std::snprintf(b, sizeof b, "%.1f", *v);
  return b;
}

void ResultTable::row(const SizeResult& r, const RunOptions& o, uint64_t calls_per_step,
                      const judge::MedianSummary* passes) {
  busbw_.push_back(r.busbw_gbps);
  wrong_ += r.wrong;
  if (columns_ != TableColumns::kCollective) {
    out_ << (columns_ == TableColumns::kBandwidth ? bandwidth_row(r, o) : latency_row(r)) << std::flush;
    return;
  }
  char line[320];
  int n = profile_ ? std::snprintf(line, sizeof line, "%15s %6llu ", std::string(collective_name(o.collective)).c_str(),
                                   static_cast<unsigned long long>(calls_per_step))
                   : 0;
  std::snprintf(line + n, sizeof line - static_cast<size_t>(n),
                "%12llu %12zu %9s %7s %5s %12.2f %11.3f %11.3f %11.2f %6s %6.0f %7llu%s\n",
                static_cast<unsigned long long>(r.bytes), r.count, std::string(dtype_name(o.dtype)).c_str(),
                std::string(reduce_op_label(o)).c_str(), std::string(algorithm_name(o.algorithm)).c_str(), r.time_us,
                r.algbw_gbps, r.busbw_gbps, r.latency_us.p99, percent(r.link_util_pct).c_str(), r.cpu_pct_mean,
                static_cast<unsigned long long>(r.wrong), repeated_ ? spread(passes).c_str() : "");
  out_ << line << std::flush;
}

// " passes spread%" for a row of a repeated run.
std::string ResultTable::spread(const judge::MedianSummary* p) {
  char b[32];
  if (!p || p->median <= 0) std::snprintf(b, sizeof b, " %6s %7s", "-", "-");
  else std::snprintf(b, sizeof b, " %6zu %7.1f", p->n, (p->max - p->min) / p->median * 100);
  return b;
}

void ResultTable::footer() {
  double avg = busbw_.empty() ? 0 : std::accumulate(busbw_.begin(), busbw_.end(), 0.0) / static_cast<double>(busbw_.size());
  char line[128];
  int n = std::snprintf(line, sizeof line, "# Out of bounds values : %llu %s\n", static_cast<unsigned long long>(wrong_),
                        wrong_ ? "FAILED" : "OK");
  if (columns_ != TableColumns::kLatency)
    std::snprintf(line + n, sizeof line - static_cast<size_t>(n), "# Avg bus bandwidth    : %.3f GB/s\n", avg);
  out_ << line << std::flush;
}

void ResultTable::step_line(const std::string& what, double comm_us) {
  char line[256];
  std::snprintf(line, sizeof line, "# %s: %.3f ms of communication per training step\n", what.c_str(), comm_us / 1e3);
  out_ << line << std::flush;
}

}  // namespace ccb
