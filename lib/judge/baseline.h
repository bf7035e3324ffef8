// A baseline from many runs (several nights, or several hosts of one kind): every key
// keeps the passes of every run that is kept, so compare tests a new run against the
// whole distribution. A run whose figures sit apart from the others' is dropped first,
// by a robust rule, and the baseline says which and why:
//   each run's score is the geometric mean over its keys of its median bus bandwidth
//   divided by the median of all runs for that key; a run whose log score has a
//   modified z-score |0.6745 (x - median) / MAD| above 3.5 (Iglewicz and Hoaglin) is an
//   outlier. Three runs at least are needed to call one an outlier.
#pragma once
#include <string>
#include <vector>

#include "judge/result_file.h"

namespace ccb::judge {

struct DroppedRun {
  std::string path;
  std::string why;  // "bus bandwidth 18.2% below the runs' median over 12 keys (modified z -5.10, limit 3.5)"
};

struct Baseline {
  ResultFile merged;               // the first kept run's job; every kept run's passes
  std::vector<std::string> kept;   // paths
  std::vector<DroppedRun> dropped;
};

constexpr double kOutlierZ = 3.5;

// Throws kInvalidArgument when there is no run, or when runs are not comparable (the
// path and the field that differs are named).
Baseline make_baseline(const std::vector<ResultFile>& runs);

// The baseline as a result file (schema ccbench.result/2) that compare reads; its job
// says which runs it holds and which were dropped, and why.
std::string baseline_json(const Baseline& b);

}  // namespace ccb::judge
