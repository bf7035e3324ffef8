// Size arithmetic on numbers that came from a flag, a file or a peer. An overflow
// means that input is wrong, so it is an error naming the input, never a wrap.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace ccb {

// `what` names the product for the error, e.g. "micro_batch x seq x hidden".
inline uint64_t checked_mul(uint64_t a, uint64_t b, std::string_view what) {
  uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw_invalid(std::string(what) + " overflows 64 bits");
  return r;
}

inline uint64_t checked_add(uint64_t a, uint64_t b, std::string_view what) {
  uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw_invalid(std::string(what) + " overflows 64 bits");
  return r;
}

// Rounds up to a multiple of `unit` (> 0), checked.
inline uint64_t checked_round_up(uint64_t v, uint64_t unit, std::string_view what) {
  return checked_mul((checked_add(v, unit - 1, what)) / unit, unit, what);
}

}  // namespace ccb
