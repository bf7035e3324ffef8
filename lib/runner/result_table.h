// The nccl-tests-style table rank 0 prints, one row per size as it is measured, with
// ccbench's extra columns: tail latency, link and CPU utilization. A profile table
// adds which collective each row is and how often a training step calls it. A run of
// several passes (--repeat) prints each size's median pass once all passes are done,
// with the number of passes and the spread of their bus bandwidth: (max - min) / median.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "judge/statistics.h"
#include "runner/collective_runner.h"

namespace ccb {

class ResultTable {
 public:
  explicit ResultTable(std::ostream& out) : out_(out) {}
  // A profile's rows name their collective; a point-to-point sweep has perftest's columns.
  void header(const std::string& title, bool profile = false, bool repeated = false,
              TableColumns columns = TableColumns::kCollective);
  void row(const SizeResult& r, const RunOptions& o, uint64_t calls_per_step = 0,
           const judge::MedianSummary* passes = nullptr);
  void footer();  // "# Avg bus bandwidth" over the rows since header()
  void step_line(const std::string& what, double comm_us);

 private:
  static std::string spread(const judge::MedianSummary* passes);
  std::ostream& out_;
  bool profile_ = false;
  bool repeated_ = false;
  TableColumns columns_ = TableColumns::kCollective;
  std::vector<double> busbw_;
  uint64_t wrong_ = 0;
};

}  // namespace ccb
