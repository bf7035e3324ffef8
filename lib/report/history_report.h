// A history as people read it: a table of nights, each judged against the night before
// and the baseline, then each key's trend; and the trend as a plot.
#pragma once
#include <string>

#include "judge/history.h"
#include "report/plot.h"

namespace ccb::report {

std::string history_table(const judge::History& h);
// The nights as an HTML table, a row each: start, file, both verdicts, each key's busbw.
std::string history_html(const judge::History& h);
// "history: FAIL: the latest night (FILE) regressed against ..." or PASS.
std::string history_verdict(const judge::History& h);
// Bus bandwidth per night, a series per key (the first kMaxTrendSeries keys).
Plot trend_plot(const judge::History& h);
constexpr size_t kMaxTrendSeries = 12;

}  // namespace ccb::report
