// What a run measured, grouped by what was measured. A measurement is a size of a
// sweep or an entry of a profile, keyed by collective, algorithm, type, operator, in
// place or not, bytes and profile entry; it holds its passes in the order they ran
// (--repeat). A step summary (a profile's or a trace's communication per step) holds
// its passes too. The result files and the table read this; nothing here measures.
#pragma once
#include <string>
#include <vector>

#include "judge/statistics.h"
#include "runner/collective_runner.h"

namespace ccb {

// One measured size: a plain sweep leaves the profile fields empty.
struct ResultRow {
  RunOptions options;
  SizeResult result;
  std::string profile;   // "llama2-7b:ddp"
  std::string what;      // "gradient bucket"
  uint64_t count_per_step = 0;
  // The algorithm the profile's step was run with: its ReduceScatter and AllGather
  // entries run ring either way, and stay apart from the other step's.
  std::string step_algorithm;
  bool chosen_by_auto = false;  // --algo auto picked options.algorithm for this size
};

struct StepSummary {
  std::string kind;      // "profile", "trace", "parallel_alone" or "parallel_together"
  std::string name;      // profile name or trace file
  std::string summary;
  std::string algorithm;
  double comm_us = 0;    // one step's communication time
  uint64_t calls = 0, bytes = 0;
  LatencyStats trace_total_us;  // traces and --parallel: per timed pass
};

class MeasurementSet {
 public:
  struct Measurement {
    ResultRow row;                   // the key and options, from the first pass
    std::vector<SizeResult> passes;  // in the order they ran
    int retries = 0;                 // times its passes were measured again (--retries)
    // The pass whose bus bandwidth is the median (the lower middle one of an even
    // count), so that every figure shown comes from one real pass.
    const SizeResult& median_pass() const;
    judge::MedianSummary busbw() const;
    uint64_t wrong() const;  // over every pass
  };
  struct Step {
    StepSummary summary;             // comm_us: the median pass's
    std::vector<double> passes_us;
  };

  // Appends row.result as a pass of its measurement (a new one for a new key).
  const Measurement& add(const ResultRow& row);
  const Step& add(const StepSummary& step);
  // Forgets the passes of row's measurement, to measure it again (--retries).
  void restart(const ResultRow& row);
  // The measurement's one pass so far, replaced (a soak's row, rewritten as it runs).
  void replace(const ResultRow& row);
  const std::vector<Measurement>& measurements() const { return measurements_; }
  const std::vector<Step>& steps() const { return steps_; }

 private:
  std::vector<Measurement> measurements_;
  std::vector<Step> steps_;
};

}  // namespace ccb
