// OCP 8-bit floating point (OFP8 v1.0), scalar conversions to and from float:
//  - E4M3: bias 7, no infinities, one NaN per sign (S.1111.111), largest 448;
//  - E5M2: IEEE-like, bias 15, infinities and NaNs, largest 57344.
// Encoding rounds to nearest, ties to even, and saturates: a finite value beyond the
// largest, and an infinity, become the largest finite value of that sign; NaN stays NaN
// (NCCL's and CUDA's __NV_SATFINITE). Like half.h these are `static` so that each ISA's
// kernel file keeps its own copy; they are the kernels' code and the checks' reference.
#pragma once
#include <cstdint>

#include "core/half.h"

namespace ccb {

struct Fp8Format {
  int man_bits;      // 3 or 2
  int bias;          // 7 or 15
  uint8_t max_code;  // the largest finite value's bits, sign clear
  bool has_inf;      // E5M2: exponent all ones is infinity (mantissa 0) or NaN
};
inline constexpr Fp8Format kE4M3{3, 7, 0x7e, false};
inline constexpr Fp8Format kE5M2{2, 15, 0x7b, true};

static inline float fp8_to_f32(uint8_t b, const Fp8Format& f) {
  const uint32_t sign = static_cast<uint32_t>(b & 0x80u) << 24;
  const uint32_t mag = b & 0x7fu, man = mag & ((1u << f.man_bits) - 1), exp = mag >> f.man_bits;
  const uint32_t exp_ones = 0x7fu >> f.man_bits;
  if (f.has_inf ? exp == exp_ones : mag == 0x7fu) return bits_f32(sign | 0x7f800000u | (f.has_inf && man == 0 ? 0 : 0x400000u));
  if (exp == 0) {  // subnormal: man x 2^(1 - bias - man_bits), exact in float
    const float v = static_cast<float>(man) * bits_f32(static_cast<uint32_t>(127 + 1 - f.bias - f.man_bits) << 23);
    return sign ? -v : v;
  }
  return bits_f32(sign | ((exp + 127u - static_cast<uint32_t>(f.bias)) << 23) | (man << (23 - f.man_bits)));
}

static inline uint8_t f32_to_fp8(float x, const Fp8Format& f) {
  const uint32_t u = f32_bits(x), abs = u & 0x7fffffffu;
  const uint8_t sign = static_cast<uint8_t>((u >> 24) & 0x80u);
  if (abs > 0x7f800000u) return sign | 0x7fu;  // NaN: E4M3's only NaN, and an E5M2 NaN
  const float max = fp8_to_f32(f.max_code, f);
  if (abs > f32_bits(max)) return sign | f.max_code;  // saturate, infinities included
  const int emin = 1 - f.bias;                          // the smallest normal is 2^emin
  if (abs < static_cast<uint32_t>(127 + emin) << 23) {
    // Subnormal: add a float whose ulp is the subnormal quantum 2^(emin - man_bits), so
    // the FPU rounds to nearest even at that place; the difference in bits is the
    // significand (2^man_bits when it rounds up to the smallest normal, which is also
    // that normal's encoding).
    const float magic = bits_f32(static_cast<uint32_t>(127 + emin - f.man_bits + 23) << 23);
    return sign | static_cast<uint8_t>(f32_bits(bits_f32(abs) + magic) - f32_bits(magic));
  }
  // Normal: round the float's mantissa to man_bits, to nearest even; a carry moves into
  // the exponent as it should. Then re-bias the exponent.
  const int drop = 23 - f.man_bits;
  const uint32_t rounded = (abs + (1u << (drop - 1)) - 1u + ((abs >> drop) & 1u)) >> drop;
  return sign | static_cast<uint8_t>(rounded - (static_cast<uint32_t>(127 - f.bias) << f.man_bits));
}

}  // namespace ccb
