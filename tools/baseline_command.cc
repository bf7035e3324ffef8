#include "baseline_command.h"

#include <iostream>

#include "core/error.h"
#include "core/files.h"
#include "judge/baseline.h"

namespace ccb::cli {

void BaselineCommand::add_options(CLI::App& sub) {
  sub.add_option("runs", runs_, "Result files of ccbench run (several nights, or hosts of one kind)")->required();
  sub.add_option("--out", output_, "The baseline to write (a result file compare reads)")->required();
  sub.add_flag("--allow-incomplete", allow_incomplete_, "Take runs that did not finish");
}

int BaselineCommand::run(const CLI::App&) {
  const OutputTarget out = check_output("--out", output_);
  std::vector<judge::ResultFile> runs;
  for (const std::string& path : runs_) {
    if (same_file(path, output_)) throw_invalid("-o '" + output_ + "' is one of the runs it merges: write it elsewhere");
    runs.push_back(judge::read_result_file(path, allow_incomplete_));
  }
  judge::Baseline b = judge::make_baseline(runs);
  write_output(out, judge::baseline_json(b));
  for (const std::string& kept : b.kept) std::cout << "# kept     " << kept << "\n";
  for (const judge::DroppedRun& d : b.dropped) std::cout << "# dropped  " << d.path << ": " << d.why << "\n";
  std::cout << "# baseline " << output_ << ": " << b.kept.size() << " run(s), " << b.merged.results.size()
            << " key(s), " << b.dropped.size() << " run(s) dropped as outliers\n";
  return 0;
}

}  // namespace ccb::cli
