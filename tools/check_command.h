// `ccbench check RESULT --rules RULES [--baseline BASE]`: judges a result file against
// rules with thresholds (lib/judge/rules.h). No ranks, no sockets. Exit status: 0 every
// rule passed, 1 one failed, 2 bad input (the rule file's line and column named).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "judge/rules.h"
#include "report/rules_report.h"
#include "report_files.h"
#include "subcommand.h"

namespace ccb::cli {

class CheckCommand final : public Subcommand {
 public:
  std::string name() const override { return "check"; }
  std::string summary() const override { return "Judge a result file against rules with thresholds (YAML)"; }
  void add_options(CLI::App& sub) override;
  int run(const CLI::App& sub) override;

 private:
  std::string result_, rules_, baseline_;
  bool allow_incomplete_ = false;
  ReportFiles<judge::RuleReport> files_{&report::rules_json, &report::rules_markdown, &report::rules_junit};
};

}  // namespace ccb::cli
