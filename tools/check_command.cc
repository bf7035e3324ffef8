#include "check_command.h"

#include <iostream>
#include <optional>

namespace ccb::cli {

void add_check_options(CLI::App& sub, CheckCommand& c) {
  sub.add_option("result", c.result, "A result file (ccbench JSON, or bench_collectives' Google Benchmark JSON)")->required();
  sub.add_option("--rules", c.rules, "The rule file (YAML; see the README's Thresholds)")->required();
  sub.add_option("--baseline", c.baseline, "A baseline for rules that bound a change ('busbw change >= -5%')");
  sub.add_flag("--allow-incomplete", c.allow_incomplete, "Judge a run that did not finish");
  c.files.add_options(sub);
}

int run_check(const CLI::App& sub, CheckCommand& c) {
  c.files.check(sub);
  const std::vector<judge::Rule> rules = judge::load_rules(c.rules);
  const judge::ResultFile result = judge::read_result_file(c.result, c.allow_incomplete);
  std::optional<judge::ResultFile> baseline;
  if (!c.baseline.empty()) baseline = judge::read_result_file(c.baseline, c.allow_incomplete);
  judge::RuleReport report = judge::check_rules(rules, result, baseline ? &*baseline : nullptr);
  report.rules_path = c.rules;
  std::cout << report::rules_table(report) << std::flush;
  c.files.write(report);
  return report.exit_status();
}

}  // namespace ccb::cli
