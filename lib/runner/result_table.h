// The nccl-tests-style table rank 0 prints, one row per size as it is measured.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "runner/collective_runner.h"

namespace ccb {

class ResultTable {
 public:
  explicit ResultTable(std::ostream& out) : out_(out) {}
  void header(const std::string& title);
  void row(const SizeResult& r, const RunOptions& o);
  void footer();  // "# Avg bus bandwidth" over the rows since header()

 private:
  std::ostream& out_;
  std::vector<double> busbw_;
  uint64_t wrong_ = 0;
};

}  // namespace ccb
