#include "history_command.h"

#include <iostream>
#include <optional>

#include "compare_command.h"
#include "core/error.h"
#include "core/files.h"
#include "job/number_flags.h"
#include "judge/history.h"
#include "report/history_report.h"
#include "report/report.h"
#include "report_command.h"

namespace ccb::cli {

void HistoryCommand::add_options(CLI::App& sub) {
  sub.add_option("dir", dir_, "A folder of nightly result files (*.json)")->required();
  sub.add_option("--baseline", baseline_, "Also judge every night against this baseline");
  sub.add_option("--out", out_dir_, "Write a report there: the trend plotted, the latest night judged");
  sub.add_option("--alpha", alpha_, "Significance level of the U test")->check(finite_in(1e-9, 0.5))->capture_default_str();
  sub.add_option("--min-change", min_change_, "Smallest change of bus bandwidth that counts, in percent")->capture_default_str();
  sub.add_flag("--allow-incomplete", allow_incomplete_, "Take runs that did not finish");
}

int HistoryCommand::run(const CLI::App&) {
  judge::CompareOptions o{alpha_, parse_percent("--min-change", min_change_)};
  if (!out_dir_.empty()) prepare_output_dir("--out", out_dir_);
  std::optional<judge::ResultFile> baseline;
  if (!baseline_.empty()) baseline = judge::read_result_file(baseline_, allow_incomplete_);
  judge::History h = judge::read_history(dir_, baseline ? &*baseline : nullptr, o, allow_incomplete_);
  std::cout << report::history_table(h) << report::history_verdict(h) << "\n" << std::flush;
  int status = h.latest_regressed() ? 1 : 0;
  if (out_dir_.empty()) return status;
  report::ReportInput in;
  in.title = "ccbench history of " + dir_;
  in.files = {h.nights.back()};
  in.comparison = baseline ? h.vs_baseline.back() : h.vs_previous.back();
  in.extra_plots = {report::trend_plot(h)};
  in.lead_html = report::history_html(h);
  in.verdict = report::history_verdict(h);
  report::ReportOutput out = report::build_report(in);
  const std::string dir = out_dir_ + "/";
  write_file_atomically(dir + "index.html", out.html);
  write_file_atomically(dir + "summary.md", report::history_table(h).insert(0, "```\n") + "```\n\n" + out.markdown);
  for (const auto& [name, contents] : out.files) write_file_atomically(dir + name, contents);
  if (!out.plot_error.empty()) {
    print_line_to_stderr("error: " + out.plot_error + " (the report is written without plots)");
    return 2;
  }
  return status;
}

}  // namespace ccb::cli
