#include "compare_command.h"

#include <cmath>
#include <iostream>

#include "core/error.h"
#include "job/number_flags.h"

namespace ccb::cli {

double parse_percent(const std::string& flag, const std::string& text) {
  std::string digits = text;
  if (!digits.empty() && digits.back() == '%') digits.pop_back();
  double v = 0;
  size_t used = 0;
  try {
    v = std::stod(digits, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (digits.empty() || used != digits.size() || !std::isfinite(v) || v < 0 || v > 1000)
    throw_invalid(flag + " '" + text + "' is not a percentage: write e.g. 5% (or 5)");
  return v / 100;
}

void add_compare_options(CLI::App& sub, CompareCommand& c) {
  sub.add_option("base", c.base, "The baseline: a result file (ccbench JSON, or bench_collectives' Google Benchmark JSON)")->required();
  sub.add_option("new", c.next, "The run to judge against it")->required();
  sub.add_option("--alpha", c.alpha, "Significance level of the U test")->check(finite_in(1e-9, 0.5))->capture_default_str();
  sub.add_option("--min-change", c.min_change, "Smallest change of bus bandwidth that counts, in percent")->capture_default_str();
  c.files.add_options(sub);
  sub.add_flag("--allow-incomplete", c.allow_incomplete, "Judge a run that did not finish (\"complete\": false)");
}

int run_compare(const CLI::App& sub, CompareCommand& c) {
  judge::CompareOptions o{c.alpha, parse_percent("--min-change", c.min_change)};
  c.files.check(sub);
  judge::ResultFile base = judge::read_result_file(c.base, c.allow_incomplete);
  judge::ResultFile next = judge::read_result_file(c.next, c.allow_incomplete);
  judge::Comparison result = judge::compare(base, next, o);
  std::cout << report::compare_table(result) << std::flush;
  c.files.write(result);
  return result.exit_status();
}

}  // namespace ccb::cli
