#include "runner/result_table.h"

#include <cstdio>
#include <numeric>

namespace ccb {

void ResultTable::header(const std::string& title) {
  busbw_.clear();
  wrong_ = 0;
  char line[256];
  std::snprintf(line, sizeof line, "%12s %12s %9s %7s %5s %12s %11s %11s %7s\n", "size", "count", "type", "redop",
                "algo", "time_us", "algbw_GBps", "busbw_GBps", "#wrong");
  out_ << "#\n# " << title << "\n#\n" << line << std::flush;
}

void ResultTable::row(const SizeResult& r, const RunOptions& o) {
  char line[256];
  std::snprintf(line, sizeof line, "%12llu %12zu %9s %7s %5s %12.2f %11.3f %11.3f %7llu\n",
                static_cast<unsigned long long>(r.bytes), r.count, std::string(dtype_name(o.dtype)).c_str(),
                std::string(op_name(o.op)).c_str(), std::string(algorithm_name(o.algorithm)).c_str(), r.time_us,
                r.algbw_gbps, r.busbw_gbps, static_cast<unsigned long long>(r.wrong));
  out_ << line << std::flush;
  busbw_.push_back(r.busbw_gbps);
  wrong_ += r.wrong;
}

void ResultTable::footer() {
  double avg = busbw_.empty() ? 0 : std::accumulate(busbw_.begin(), busbw_.end(), 0.0) / static_cast<double>(busbw_.size());
  char line[128];
  std::snprintf(line, sizeof line, "# Out of bounds values : %llu %s\n# Avg bus bandwidth    : %.3f GB/s\n",
                static_cast<unsigned long long>(wrong_), wrong_ ? "FAILED" : "OK", avg);
  out_ << line << std::flush;
}

}  // namespace ccb
