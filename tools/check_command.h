// `ccbench check RESULT --rules RULES [--baseline BASE]`: judges a result file against
// rules with thresholds (lib/judge/rules.h). No ranks, no sockets. Exit status: 0 every
// rule passed, 1 one failed, 2 bad input (the rule file's line and column named).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "judge/rules.h"
#include "report/rules_report.h"
#include "report_files.h"

namespace ccb::cli {

struct CheckCommand {
  std::string result, rules, baseline;
  bool allow_incomplete = false;
  ReportFiles<judge::RuleReport> files{&report::rules_json, &report::rules_markdown, &report::rules_junit};
};

void add_check_options(CLI::App& sub, CheckCommand& c);
int run_check(const CLI::App& sub, CheckCommand& c);

}  // namespace ccb::cli
