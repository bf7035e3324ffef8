// `ccbench history DIR [--baseline BASE] [-o REPORT]`: the nights of a folder in order
// of their start time, each judged against the night before and the baseline, each
// key's trend, and with -o a report with the trend plotted. No ranks, no sockets. Exit
// status: 0 the latest night did not regress, 1 it did, 2 bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "subcommand.h"

namespace ccb::cli {

class HistoryCommand final : public Subcommand {
 public:
  std::string name() const override { return "history"; }
  std::string summary() const override { return "Nightly results in time order: trends, and nights judged against the night before"; }
  void add_options(CLI::App& sub) override;
  int run(const CLI::App& sub) override;

 private:
  std::string dir_, baseline_, out_dir_;
  double alpha_ = 0.05;
  std::string min_change_ = "5%";
  bool allow_incomplete_ = false;
};

}  // namespace ccb::cli
