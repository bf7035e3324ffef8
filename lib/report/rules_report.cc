#include "report/rules_report.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/compare_report.h"

namespace ccb::report {
namespace {

using judge::RuleOutcome;
using judge::RuleReport;

std::string verdict(const RuleOutcome& o) { return o.passed ? "pass" : "FAIL"; }
std::string subject(const RuleOutcome& o) { return o.key.empty() ? "(the selector)" : o.key; }
// A rule written in a file says where; a built-in one (line 0) has no line to name.
std::string where(const RuleOutcome& o) { return o.rule.line > 0 ? " (line " + std::to_string(o.rule.line) + ")" : ""; }

std::string totals(const RuleReport& r) {
  std::ostringstream s;
  s << r.outcomes.size() - r.failures() << " passed, " << r.failures() << " failed";
  return s.str();
}

}  // namespace

std::string rules_table(const RuleReport& r) {
  std::ostringstream out;
  out << "# ccbench " << r.judge << ": " << r.result_path << " against " << r.rules_path
      << (r.baseline_path.empty() ? "" : ", baseline " + r.baseline_path) << "\n";
  for (const RuleOutcome& o : r.outcomes)
    out << verdict(o) << "  " << o.rule.name << where(o) << ": " << subject(o) << ": " << o.detail << "\n";
  out << "# " << totals(r) << "\n";
  return out.str();
}

std::string rules_markdown(const RuleReport& r) {
  std::ostringstream out;
  out << "### ccbench " << r.judge << "\n\n`" << r.result_path << "` against `" << r.rules_path << "`.\n\n"
      << "| rule | result | measured | verdict |\n|---|---|---|---|\n";
  for (const RuleOutcome& o : r.outcomes)
    out << "| " << o.rule.name << " | " << subject(o) << " | " << o.detail << " | "
        << (o.passed ? "pass" : "**FAIL**") << " |\n";
  out << "\n" << totals(r) << ".\n";
  return out.str();
}

std::string rules_json(const RuleReport& r) {
  using nlohmann::ordered_json;
  ordered_json outcomes = ordered_json::array();
  for (const RuleOutcome& o : r.outcomes)
    outcomes.push_back({{"rule", o.rule.name}, {"line", o.rule.line}, {"require", o.rule.bound.text},
                        {"key", o.key}, {"passed", o.passed},
                        {"measured", o.measured ? ordered_json(*o.measured) : ordered_json(nullptr)}, {"detail", o.detail}});
  ordered_json j{{"schema", "ccbench.check/1"}, {"result", r.result_path}, {"rules", r.rules_path},
                 {"baseline", r.baseline_path}, {"outcomes", outcomes}, {"failures", r.failures()},
                 {"exit_status", r.exit_status()}};
  return j.dump(2) + "\n";
}

std::string rules_junit(const RuleReport& r) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"ccbench " << xml_escape(r.judge) << "\" tests=\""
      << r.outcomes.size() << "\" failures=\"" << r.failures() << "\">\n";
  for (const RuleOutcome& o : r.outcomes) {
    out << "    <testcase classname=\"ccbench." << xml_escape(r.judge) << "." << xml_escape(o.rule.name) << "\" name=\"" << xml_escape(subject(o))
        << "\">";
    if (!o.passed) out << "\n      <failure message=\"" << xml_escape(o.detail) << "\"/>\n    ";
    out << "</testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace ccb::report
