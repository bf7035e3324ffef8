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

namespace ccb::cli {

struct CompareCommand {
  std::string base, next;
  double alpha = 0.05;
  std::string min_change = "5%";
  bool allow_incomplete = false;
  ReportFiles<judge::Comparison> files{&report::compare_json, &report::compare_markdown, &report::compare_junit};
};

void add_compare_options(CLI::App& sub, CompareCommand& c);
int run_compare(const CLI::App& sub, CompareCommand& c);

// "5%" or "5" (percent) as a fraction; throws kInvalidArgument naming the flag.
double parse_percent(const std::string& flag, const std::string& text);

}  // namespace ccb::cli
