#include "report_command.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>

#include "core/error.h"
#include "core/files.h"
#include "judge/compare.h"
#include "judge/rules.h"
#include "report/report.h"

namespace ccb::cli {

void ReportCommand::add_options(CLI::App& sub) {
  sub.add_option("results", results_, "Result files (ccbench JSON, or bench_collectives' Google Benchmark JSON)")->required();
  sub.add_option("--out", out_dir_, "The report's folder (made if missing): index.html, summary.md, plots")->required();
  sub.add_option("--baseline", baseline_, "Compare the last result file with this baseline, and plot the change");
  sub.add_option("--rules", rules_, "Judge the last result file by these rules (YAML)");
  sub.add_flag("--allow-incomplete", allow_incomplete_, "Take runs that did not finish");
}

void prepare_output_dir(const std::string& flag, const std::string& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) throw_invalid(flag + " '" + dir + "' is a symbolic link: give the folder it points to");
    if (!S_ISDIR(st.st_mode)) throw_invalid(flag + " '" + dir + "' is not a folder");
    return;
  }
  if (errno == ENOENT && ::mkdir(dir.c_str(), 0755) == 0) return;
  const int why = errno;
  // Every rank of a job prepares the folder: another may have made it since our lstat.
  if (why == EEXIST && ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  throw_invalid(flag + " '" + dir + "': cannot make the folder (" + std::strerror(why) + "): does its parent exist?");
}

int ReportCommand::run(const CLI::App&) {
  prepare_output_dir("--out", out_dir_);
  const std::string dir = out_dir_ + "/";
  for (const char* name : {"index.html", "summary.md"}) check_output("--out", dir + name);
  report::ReportInput in;
  for (const std::string& path : results_) in.files.push_back(judge::read_result_file(path, allow_incomplete_));
  if (!baseline_.empty())
    in.comparison = judge::compare(judge::read_result_file(baseline_, allow_incomplete_), in.files.back(), {});
  if (!rules_.empty()) {
    std::optional<judge::ResultFile> base;
    if (!baseline_.empty()) base = judge::read_result_file(baseline_, allow_incomplete_);
    in.rules = judge::check_rules(judge::load_rules(rules_), in.files.back(), base ? &*base : nullptr);
  }
  report::ReportOutput out = report::build_report(in);
  write_file_atomically(dir + "index.html", out.html);
  write_file_atomically(dir + "summary.md", out.markdown);
  for (const auto& [name, contents] : out.files) write_file_atomically(dir + name, contents);
  std::cout << "# report " << out_dir_ << ": index.html, summary.md and " << out.files.size() / 2 << " plot(s)\n";
  if (out.plot_error.empty()) return 0;
  print_line_to_stderr("error: " + out.plot_error + " (the report is written without plots)");
  return 2;
}

void check_plot_path(const std::string& path) {
  if (!path.ends_with(".svg") && !path.ends_with(".png"))
    throw_invalid("--plot '" + path + "': name an .svg or a .png file");
  check_output("--plot", path);
  if (!report::gnuplot_available())
    throw_invalid("--plot needs gnuplot, which is not installed: apt-get install gnuplot-nox (tools/install-deps.sh does)");
}

void write_run_plot(const std::string& path, const std::string& record_json) {
  report::ReportInput in;
  in.files.push_back(judge::parse_result_text(record_json, path, true));
  std::vector<report::Plot> plots = report::report_plots(in);
  if (plots.empty()) return;
  report::Drawing d = report::draw(plots.front());  // bus bandwidth against size
  write_output(check_output("--plot", path), path.ends_with(".png") ? d.png : d.svg);
}

}  // namespace ccb::cli
