#include "run_rules.h"

#include <iostream>
#include <sstream>

#include "core/error.h"
#include "report/rules_report.h"

namespace ccb::cli {
namespace {

// What to measure again, as every rank reads it: "ring:1048576,tree:65536".
std::string failing_sizes(const judge::RuleReport& report, const judge::ResultFile& f) {
  std::string todo;
  for (const std::string& key : report.failing_keys())
    for (const judge::Measured& m : f.results)
      if (m.key == key && m.profile.empty()) todo += (todo.empty() ? "" : ",") + m.algorithm + ":" + std::to_string(m.bytes);
  return todo;
}

}  // namespace

std::optional<RunRules> load_run_rules(const std::string& rules, const std::string& baseline, int retries,
                                       const std::string& junit) {
  if (rules.empty()) {
    if (!baseline.empty() || retries > 0 || !junit.empty())
      throw_invalid("--baseline, --retries and --junit of ccbench run judge the run by --rules: give --rules too");
    return std::nullopt;
  }
  RunRules r;
  r.path = rules;
  r.rules = judge::load_rules(rules);
  if (!baseline.empty()) r.baseline = judge::read_result_file(baseline);
  for (const judge::Rule& rule : r.rules)
    if (rule.bound.change && !r.baseline)
      throw_invalid("rule '" + rule.name + "' (" + rules + ", line " + std::to_string(rule.line) +
                    ") compares with a baseline: give --baseline FILE");
  r.retries = retries;
  if (!junit.empty()) r.junit = check_output("--junit", junit);
  return r;
}

int judge_run(const RunRules& r, Bootstrap& boot, ResultRecord* record,
              const std::function<void(const std::string&, uint64_t)>& remeasure) {
  for (int attempt = 0;; ++attempt) {
    judge::RuleReport report;
    std::string todo;
    if (record) {
      judge::ResultFile mine = judge::parse_result_text(record->json_text(), "this run", true);
      report = judge::check_rules(r.rules, mine, r.baseline ? &*r.baseline : nullptr);
      if (attempt < r.retries) todo = failing_sizes(report, mine);
    }
    todo = boot.allgather(todo).front();  // rank 0 decides for all
    if (todo.empty()) {
      if (!record) return 0;
      report.rules_path = r.path;
      std::cout << report::rules_table(report) << std::flush;
      if (r.junit) write_output(*r.junit, report::rules_junit(report));
      return report.exit_status();
    }
    if (record) std::cout << "# retry " << attempt + 1 << " of " << r.retries << ": measuring again " << todo << "\n" << std::flush;
    std::stringstream items(todo);
    for (std::string item; std::getline(items, item, ',');) {
      const auto colon = item.find(':');
      remeasure(item.substr(0, colon), std::stoull(item.substr(colon + 1)));
    }
  }
}

}  // namespace ccb::cli
