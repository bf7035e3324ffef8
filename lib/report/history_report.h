// A history as people read it: a table of nights, each judged against the night before
// and the baseline, then each key's trend; and the trend as a plot.
#pragma once
#include <string>

#include "judge/history.h"
#include "report/plot.h"

namespace ccb::report {

std::string history_table(const judge::History& h);
// Bus bandwidth per night, a series per key (the first kMaxTrendSeries keys).
Plot trend_plot(const judge::History& h);
constexpr size_t kMaxTrendSeries = 12;

}  // namespace ccb::report
