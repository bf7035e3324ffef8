// `ccbench compare BASE NEW`: reads two result files (no ranks, no sockets), judges
// every key (lib/judge/compare.h), prints the table and writes the other forms asked
// for. Exit status: 0 nothing regressed, 1 a regression (or nothing could be tested),
// 2 bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ccb::cli {

struct CompareCommand {
  std::string base, next;
  double alpha = 0.05;
  std::string min_change = "5%";
  std::string json, markdown, junit;
  bool allow_incomplete = false;
};

void add_compare_options(CLI::App& sub, CompareCommand& c);
int run_compare(const CLI::App& sub, const CompareCommand& c);

// "5%" or "5" (percent) as a fraction; throws kInvalidArgument naming the flag.
double parse_percent(const std::string& flag, const std::string& text);

}  // namespace ccb::cli
