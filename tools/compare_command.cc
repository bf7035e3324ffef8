#include "compare_command.h"

#include <cmath>
#include <iostream>

#include "core/error.h"
#include "core/units.h"
#include "job/number_flags.h"

namespace ccb::cli {

double parse_percent(const std::string& flag, const std::string& text) {
  std::string digits = text;
  if (!digits.empty() && digits.back() == '%') digits.pop_back();
  const auto [v, used] = leading_number(digits);
  if (digits.empty() || used != digits.size() || !std::isfinite(v) || v < 0 || v > 1000)
    throw_invalid(flag + " '" + text + "' is not a percentage: write e.g. 5% (or 5)");
  return v / 100;
}

void CompareCommand::add_options(CLI::App& sub) {
  sub.add_option("base", base_, "The baseline: a result file (ccbench JSON, or bench_collectives' Google Benchmark JSON)")->required();
  sub.add_option("new", next_, "The run to judge against it")->required();
  sub.add_option("--alpha", alpha_, "Significance level of the U test")->check(finite_in(1e-9, 0.5))->capture_default_str();
  sub.add_option("--min-change", min_change_, "Smallest change of bus bandwidth that counts, in percent")->capture_default_str();
  files_.add_options(sub);
  sub.add_flag("--allow-incomplete", allow_incomplete_, "Judge a run that did not finish (\"complete\": false)");
}

int CompareCommand::run(const CLI::App& sub) {
  judge::CompareOptions o{alpha_, parse_percent("--min-change", min_change_)};
  files_.check(sub);
  judge::ResultFile base = judge::read_result_file(base_, allow_incomplete_);
  judge::ResultFile next = judge::read_result_file(next_, allow_incomplete_);
  judge::Comparison result = judge::compare(base, next, o);
  for (const std::string& w : result.warnings) std::cerr << "ccbench compare: warning: " << w << "\n";
  std::cout << report::compare_table(result) << std::flush;
  files_.write(result);
  return result.exit_status();
}

}  // namespace ccb::cli
