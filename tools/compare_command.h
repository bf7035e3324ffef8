// `ccbench compare BASE NEW`: reads two result files (no ranks, no sockets), judges
// every key (lib/judge/compare.h), prints the table and writes the other forms asked
// for. Exit status: 0 nothing regressed, 1 a regression (or nothing could be tested),
// 2 bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "judge/compare.h"
#include "report/compare_report.h"
#include "report_files.h"
#include "subcommand.h"

namespace ccb::cli {

class CompareCommand final : public Subcommand {
 public:
  std::string name() const override { return "compare"; }
  std::string summary() const override { return "Judge a run against a baseline, key by key (a U test over the passes)"; }
  void add_options(CLI::App& sub) override;
  int run(const CLI::App& sub) override;

 private:
  std::string base_, next_;
  double alpha_ = 0.05;
  std::string min_change_ = "5%";
  bool allow_incomplete_ = false;
  ReportFiles<judge::Comparison> files_{&report::compare_json, &report::compare_markdown, &report::compare_junit};
};

// "5%" or "5" (percent) as a fraction; throws kInvalidArgument naming the flag.
double parse_percent(const std::string& flag, const std::string& text);

}  // namespace ccb::cli
