// Compare two result files, key by key: for each measurement present in both, the
// medians of bus bandwidth and latency, the change, and a two-sided Mann-Whitney U test
// over the passes (or, with one pass each, over the per-iteration samples: a weaker
// test, and the verdict says so). A key is a regression or an improvement only when
// the change is at least min_change and p < alpha; otherwise it is unchanged. Files of
// different machines, transport settings, line rates or schemas are not comparable,
// and every key says which field differs.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/result_file.h"

namespace ccb::judge {

struct CompareOptions {
  double alpha = 0.05;
  double min_change = 0.05;  // a fraction of the base's bus bandwidth
};

enum class Verdict { kRegression, kImprovement, kUnchanged, kNotComparable };
std::string_view verdict_name(Verdict v);

struct KeyComparison {
  std::string key;
  uint64_t bytes = 0;
  Verdict verdict = Verdict::kNotComparable;
  std::string note;  // why it is not comparable, or what the test rests on
  double base_busbw = 0, new_busbw = 0;  // medians over the passes, GB/s
  double base_p50 = 0, new_p50 = 0, base_p99 = 0, new_p99 = 0;  // medians, us
  double change = 0;  // new / base - 1 of bus bandwidth (time for a zero bandwidth)
  std::optional<double> p;
  std::string test;   // "passes", "samples", or "" when untested
  size_t base_n = 0, new_n = 0;
};

struct Comparison {
  std::string base_path, new_path;
  std::string not_comparable;  // the file-level difference, "" when comparable
  std::vector<KeyComparison> rows;
  std::vector<std::string> only_base, only_new;
  double geomean_change = 0;   // geometric mean of new / base bus bandwidth over tested keys, minus 1
  size_t tested = 0;
  size_t count(Verdict v) const;
  // Exit status: 1 when a key regressed, or when no key could be tested at all (that
  // is no pass); else 0.
  int exit_status() const;
  // The verdict and, for an exit 1, why: "compare: FAIL: nothing could be judged: ...".
  std::string closing_line() const;
  std::vector<std::string> warnings;  // both files' (figures that disagree within a file)
};

Comparison compare(const ResultFile& base, const ResultFile& next, const CompareOptions& o);

// What makes two files incomparable: "machine: 'X' vs 'Y'"; "" when nothing does.
std::string incomparable_field(const ResultFile& a, const ResultFile& b);

}  // namespace ccb::judge
