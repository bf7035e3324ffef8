// A folder of nightly result files, in order of their start time: per key the trend of
// each night's median bus bandwidth, and each night judged as compare would judge it
// against the night before and against a baseline.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "judge/compare.h"
#include "judge/result_file.h"

namespace ccb::judge {

struct History {
  std::string dir;
  std::vector<ResultFile> nights;                     // by start time
  std::vector<std::optional<Comparison>> vs_previous;  // per night; none for the first
  std::vector<std::optional<Comparison>> vs_baseline;  // per night, with a baseline
  std::vector<std::string> keys;                      // every key, in the order first seen
  std::vector<std::string> skipped;                   // JSON files there that are not results
  // The latest night regressed against the night before or the baseline.
  bool latest_regressed() const;
  // A night's median bus bandwidth for a key; nullopt when the night lacks the key.
  std::optional<double> busbw(size_t night, const std::string& key) const;
};

// Reads every *.json regular file of dir (not below it). A JSON file that is not a
// result (a compare's or check's output) is skipped and listed; a result file that is
// broken is an error naming it. Throws kInvalidArgument for fewer than one result.
History read_history(const std::string& dir, const ResultFile* baseline, const CompareOptions& o,
                     bool allow_incomplete = false);

}  // namespace ccb::judge
