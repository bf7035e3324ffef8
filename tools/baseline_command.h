// `ccbench baseline --out BASE RUN...`: merges runs into one baseline result file
// (lib/judge/baseline.h), dropping outlier runs and saying why. No ranks, no sockets.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "subcommand.h"

namespace ccb::cli {

class BaselineCommand final : public Subcommand {
 public:
  std::string name() const override { return "baseline"; }
  std::string summary() const override { return "Merge runs into a baseline, dropping outlier runs (and saying why)"; }
  void add_options(CLI::App& sub) override;
  int run(const CLI::App& sub) override;

 private:
  std::vector<std::string> runs_;
  std::string output_;
  bool allow_incomplete_ = false;
};

}  // namespace ccb::cli
