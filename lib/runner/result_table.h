// The nccl-tests-style table rank 0 prints, one row per size as it is measured, with
// ccbench's extra columns: tail latency, link and CPU utilization. A profile table
// adds which collective each row is and how often a training step calls it.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "runner/collective_runner.h"

namespace ccb {

class ResultTable {
 public:
  explicit ResultTable(std::ostream& out) : out_(out) {}
  void header(const std::string& title, bool profile = false);
  void row(const SizeResult& r, const RunOptions& o, uint64_t calls_per_step = 0);
  void footer();  // "# Avg bus bandwidth" over the rows since header()
  void step_line(const std::string& what, double comm_us);

 private:
  std::ostream& out_;
  bool profile_ = false;
  std::vector<double> busbw_;
  uint64_t wrong_ = 0;
};

}  // namespace ccb
