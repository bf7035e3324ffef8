#include "check_command.h"

#include <iostream>
#include <optional>

namespace ccb::cli {

void CheckCommand::add_options(CLI::App& sub) {
  sub.add_option("result", result_, "A result file (ccbench JSON, or bench_collectives' Google Benchmark JSON)")->required();
  sub.add_option("--rules", rules_, "The rule file (YAML; see the README's Thresholds)")->required();
  sub.add_option("--baseline", baseline_, "A baseline for rules that bound a change ('busbw change >= -5%')");
  sub.add_flag("--allow-incomplete", allow_incomplete_, "Judge a run that did not finish");
  files_.add_options(sub);
}

int CheckCommand::run(const CLI::App& sub) {
  files_.check(sub);
  const std::vector<judge::Rule> rules = judge::load_rules(rules_);
  const judge::ResultFile result = judge::read_result_file(result_, allow_incomplete_);
  std::optional<judge::ResultFile> baseline;
  if (!baseline_.empty()) baseline = judge::read_result_file(baseline_, allow_incomplete_);
  judge::RuleReport report = judge::check_rules(rules, result, baseline ? &*baseline : nullptr);
  report.rules_path = rules_;
  std::cout << report::rules_table(report) << std::flush;
  files_.write(report);
  return report.exit_status();
}

}  // namespace ccb::cli
