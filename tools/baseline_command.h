// `ccbench baseline -o BASE RUN...`: merges runs into one baseline result file
// (lib/judge/baseline.h), dropping outlier runs and saying why. No ranks, no sockets.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ccb::cli {

struct BaselineCommand {
  std::vector<std::string> runs;
  std::string output;
  bool allow_incomplete = false;
};

void add_baseline_options(CLI::App& sub, BaselineCommand& c);
int run_baseline(const BaselineCommand& c);

}  // namespace ccb::cli
