// Rules with thresholds, read from YAML (yaml-cpp), judged on result files:
//
//   rules:
//     - name: AllReduce at 90% of the line rate
//       select: {collective: allreduce, algorithm: ring, min_bytes: 1M}
//       require: link_util_pct >= 90
//     - name: small messages stay fast
//       select: {max_bytes: 64K}
//       require: p99_us <= 30
//     - name: no more than 5% below the baseline      (needs --baseline)
//       require: busbw change >= -5%
//     - name: no wrong results
//       require: wrong == 0
//     - name: every size measured
//       select: {sizes: [1M, 16M, 64M]}
//       require: present
//
// A selector matches results by collective, algorithm, transport, dtype, op, profile,
// a size range (min_bytes, max_bytes) or a list of sizes; a rule without one selects
// every result. A bound is "<metric> <op> <number>" with op one of >= <= > < ==:
//   busbw_GBps, algbw_GBps (GB/s), time_us, p50_us, p99_us (us): the median over the
//     passes; link_util_pct: that bus bandwidth x 8 / the line rate; wrong: over all passes;
//   "<busbw|time|p50|p99> change <op> <number>%": against the same key of --baseline
//     (positive is more bandwidth, or more time);
//   "present": each listed size (or, without a list, at least one result) is there.
// A rule file with an error is refused with its line and column, and the field.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "judge/result_file.h"

namespace ccb::judge {

struct Selector {
  std::string collective, algorithm, transport, dtype, op, profile;
  std::optional<uint64_t> min_bytes, max_bytes;
  std::vector<uint64_t> sizes;
  bool matches(const Measured& m) const;
};

enum class Metric { kBusbw, kAlgbw, kTime, kP50, kP99, kLinkUtil, kWrong, kPresent };
enum class Compare { kGe, kLe, kGt, kLt, kEq };

struct Bound {
  Metric metric = Metric::kPresent;
  bool change = false;   // relative to the baseline, in percent
  Compare op = Compare::kGe;
  double value = 0;
  std::string text;      // as written
};

struct Rule {
  std::string name;
  Selector select;
  Bound bound;
  int line = 0;          // where it is in its file (1-based)
};

// Throws kInvalidArgument "<file>:<line>:<column>: <field>: <what is wrong and the fix>".
std::vector<Rule> load_rules(const std::string& path);
// `other_fields`: top-level fields besides 'rules' that the text may hold (a qualify
// spec's battery); they are left to the caller.
std::vector<Rule> parse_rules(const std::string& yaml, const std::string& source,
                              const std::vector<std::string>& other_fields = {});

struct RuleOutcome {
  Rule rule;             // a copy: an outcome outlives any list of rules
  std::string key;       // the result judged, or the size missing
  bool passed = false;
  std::optional<double> measured;
  std::string detail;    // "link_util_pct 84.2 < 90", "size 64 MiB missing", "no baseline value"
};

struct RuleReport {
  std::string judge = "check";  // which command judged: "check", "qualify" (the JUnit suite's name)
  std::string result_path, rules_path, baseline_path;
  std::vector<RuleOutcome> outcomes;
  size_t failures() const;
  int exit_status() const { return failures() > 0 ? 1 : 0; }
  // The keys of the results that failed a rule (for --retries); missing sizes excluded.
  std::vector<std::string> failing_keys() const;
};

// `baseline` is required when a rule has a change bound (kInvalidArgument otherwise).
RuleReport check_rules(const std::vector<Rule>& rules, const ResultFile& result, const ResultFile* baseline);

}  // namespace ccb::judge
