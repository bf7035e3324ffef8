// A rules check as people and CI systems read it: a table, Markdown, JSON, and JUnit XML
// with one test case per rule and result (a failed bound is a failure).
#pragma once
#include <string>

#include "judge/rules.h"

namespace ccb::report {

std::string rules_table(const judge::RuleReport& r);
std::string rules_markdown(const judge::RuleReport& r);
std::string rules_json(const judge::RuleReport& r);
std::string rules_junit(const judge::RuleReport& r);

}  // namespace ccb::report
