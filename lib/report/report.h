// A report of result files, for a person to open: plots drawn by gnuplot (bus bandwidth
// against size; p50 latency with the p99 as a band; link utilization; with a baseline,
// the change per size as bars coloured by verdict), one self-contained HTML page with
// the plots inline, a Markdown summary, and the plots as SVG and PNG files.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "judge/compare.h"
#include "judge/result_file.h"
#include "judge/rules.h"
#include "report/plot.h"

namespace ccb::report {

struct ReportInput {
  std::string title = "ccbench report";
  std::vector<judge::ResultFile> files;
  std::optional<judge::Comparison> comparison;  // the last file against a baseline
  std::optional<judge::RuleReport> rules;
  std::vector<Plot> extra_plots;                 // a history's trends
  std::string lead_html, lead_markdown;          // a section before the rest (a study's table)
  // The page's first line, "qualify: FAIL: TCP, 4 of 14 checks failed"; "" derives it
  // from the comparison and the rules.
  std::string verdict;
};

// The verdict a report opens with, and whether it passed.
std::pair<std::string, bool> report_verdict(const ReportInput& in);

struct ReportOutput {
  std::string html, markdown;
  std::vector<std::pair<std::string, std::string>> files;  // plot files: name, contents
  std::string plot_error;  // why the plots are missing ("" when drawn); the rest is written
};

// The plots of the input (pure: no gnuplot).
std::vector<Plot> report_plots(const ReportInput& in);
// Draws the plots and writes the pages.
ReportOutput build_report(const ReportInput& in);

// A sweep's results grouped into series, one per file, transport, collective and
// algorithm, each point a size: `figure` picks y (and the band) from a result.
using Figure = Point (*)(const judge::Measured& m, const judge::ResultFile& f, bool& ok);
std::vector<Series> series_of(const std::vector<judge::ResultFile>& files, Figure figure, bool band);

std::string html_escape(const std::string& s);

// The leading words every key shares ("allreduce ring tcp float sum 2 ranks"), to say
// once in a title; and a key without them, a size alone written as flags take it ("1M").
std::string shared_words(const std::vector<std::string>& keys);
std::string short_key(const std::string& key, const std::string& shared);

}  // namespace ccb::report
