// A per-rank collective trace: JSON lines of {"op": ..., "bytes": ..., "dtype": ...},
// as a framework hook can log them. Blank lines and lines starting with '#' are
// skipped; other fields (timestamps, stream ids) are ignored.
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "core/collective_kind.h"
#include "core/dtype.h"

namespace ccb {

struct TraceCall {
  CollectiveKind op = CollectiveKind::kAllreduce;
  uint64_t bytes = 0;
  DataType dtype = DataType::kF32;
};

// A trace is a regular file of at most this size (a step's calls are a few thousand lines).
constexpr uint64_t kMaxTraceFileBytes = 64ull << 20;

// Throws kInvalidArgument "<source>:<line>: <what is wrong>" at the first bad line.
std::vector<TraceCall> parse_trace(std::istream& in, const std::string& source);
std::vector<TraceCall> load_trace(const std::string& path);

}  // namespace ccb
