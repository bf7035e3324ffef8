// A comparison as people and CI systems read it: a table for the terminal, Markdown
// ready to paste as a CI comment, JSON for scripts, and JUnit XML with one test case
// per key (a regression is a failure, a key that could not be compared is skipped).
#pragma once
#include <string>

#include "judge/compare.h"

namespace ccb::report {

std::string compare_table(const judge::Comparison& c);
std::string compare_markdown(const judge::Comparison& c);
std::string compare_json(const judge::Comparison& c);
std::string compare_junit(const judge::Comparison& c);

// The XML text of s: & < > " ' escaped, and control characters XML cannot hold dropped.
std::string xml_escape(const std::string& s);

}  // namespace ccb::report
