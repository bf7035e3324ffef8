// Input patterns whose reduction is exact in every type and any summation order, so
// a check can demand bit-exact results: small integers sized to the type's exact range
// (sums), powers of two (products), and exact wrap-around for integer types.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/dtype.h"

namespace ccb {

struct PatternSpec {
  DataType dtype;
  ReduceOp op;
  int world;
};

// Element i of rank r's input, as a double (exact for every type used here).
double pattern_value(const PatternSpec& p, int rank, size_t i);
// What element i of the reduction over all ranks must be, before conversion.
double expected_value(const PatternSpec& p, size_t i);

// Writes `count` elements of rank r's input, starting at global element `first`.
void fill_pattern(void* dst, size_t count, size_t first, const PatternSpec& p, int rank);
// Counts the elements of `data` (global elements first..first+count) that differ.
uint64_t count_wrong(const void* data, size_t count, size_t first, const PatternSpec& p);
// The same against rank r's own input, for the collectives that move data unreduced.
uint64_t count_wrong_input(const void* data, size_t count, size_t first, const PatternSpec& p, int rank);

// The first element a check found wrong, for a soak's report. While a MismatchCapture
// is alive on a thread, count_wrong and count_wrong_input on that thread note the first
// wrong element they meet.
struct Mismatch {
  const char* at = nullptr;  // the element in memory
  size_t element = 0;        // its global element index
  double expected = 0, got = 0;
};

class MismatchCapture {
 public:
  MismatchCapture();
  ~MismatchCapture();
  MismatchCapture(const MismatchCapture&) = delete;
  MismatchCapture& operator=(const MismatchCapture&) = delete;
  const std::optional<Mismatch>& first() const { return first_; }
  void note(const Mismatch& m) {
    if (!first_) first_ = m;
  }

 private:
  std::optional<Mismatch> first_;
  MismatchCapture* outer_;
};

// Converts a double to the stored bits of `t` (RNE for half types) and back.
void store_value(void* dst, size_t index, DataType t, double v);
double load_value(const void* src, size_t index, DataType t);

}  // namespace ccb
