#include "baseline_command.h"

#include <iostream>

#include "core/error.h"
#include "core/files.h"
#include "judge/baseline.h"

namespace ccb::cli {

void add_baseline_options(CLI::App& sub, BaselineCommand& c) {
  sub.add_option("runs", c.runs, "Result files of ccbench run (several nights, or hosts of one kind)")->required();
  sub.add_option("-o,--output", c.output, "The baseline to write (a result file compare reads)")->required();
  sub.add_flag("--allow-incomplete", c.allow_incomplete, "Take runs that did not finish");
}

int run_baseline(const BaselineCommand& c) {
  const OutputTarget out = check_output("-o", c.output);
  std::vector<judge::ResultFile> runs;
  for (const std::string& path : c.runs) {
    if (same_file(path, c.output)) throw_invalid("-o '" + c.output + "' is one of the runs it merges: write it elsewhere");
    runs.push_back(judge::read_result_file(path, c.allow_incomplete));
  }
  judge::Baseline b = judge::make_baseline(runs);
  write_output(out, judge::baseline_json(b));
  for (const std::string& kept : b.kept) std::cout << "# kept     " << kept << "\n";
  for (const judge::DroppedRun& d : b.dropped) std::cout << "# dropped  " << d.path << ": " << d.why << "\n";
  std::cout << "# baseline " << c.output << ": " << b.kept.size() << " run(s), " << b.merged.results.size()
            << " key(s), " << b.dropped.size() << " run(s) dropped as outliers\n";
  return 0;
}

}  // namespace ccb::cli
