// OFP8 conversions against an independent reference: each code's value from the
// specification's formula in double, and encoding by searching every code for the
// nearest (ties to the even code), saturating beyond the largest finite value.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "algo/data_pattern.h"
#include "core/fp8.h"

using namespace ccb;

namespace {

struct Format {
  const Fp8Format& f;
  int exp_bits, man_bits, bias;
  const char* name;
};
const Format kFormats[] = {{kE4M3, 4, 3, 7, "e4m3"}, {kE5M2, 5, 2, 15, "e5m2"}};

bool is_nan_code(const Format& F, int code) {
  const int mag = code & 0x7f, exp = mag >> F.man_bits, man = mag & ((1 << F.man_bits) - 1);
  if (F.exp_bits == 4) return mag == 0x7f;
  return exp == 31 && man != 0;
}

// The specification's value of a code (NaN for NaNs, +-inf for E5M2's infinities).
double spec_value(const Format& F, int code) {
  const int mag = code & 0x7f, exp = mag >> F.man_bits, man = mag & ((1 << F.man_bits) - 1);
  const double sign = code & 0x80 ? -1.0 : 1.0;
  if (is_nan_code(F, code)) return std::numeric_limits<double>::quiet_NaN();
  if (F.exp_bits == 5 && exp == 31) return sign * std::numeric_limits<double>::infinity();
  if (exp == 0) return sign * std::ldexp(man, 1 - F.bias - F.man_bits);
  return sign * std::ldexp(man + (1 << F.man_bits), exp - F.bias - F.man_bits);
}

// Nearest finite code by exhaustive search; ties go to the code with an even mantissa.
int nearest_code(const Format& F, float x) {
  if (std::isnan(x)) return (std::signbit(x) ? 0x80 : 0) | 0x7f;
  const double largest = spec_value(F, F.f.max_code);
  const int sign = std::signbit(x) ? 0x80 : 0;
  const double a = std::fabs(static_cast<double>(x));
  if (a > largest) return sign | F.f.max_code;
  int best = 0;
  for (int mag = 0; mag <= F.f.max_code; ++mag) {
    const double d = std::fabs(spec_value(F, mag) - a), bd = std::fabs(spec_value(F, best) - a);
    if (d < bd || (d == bd && (mag & 1) == 0)) best = mag;
  }
  return sign | best;
}

}  // namespace

TEST_CASE("fp8: every code decodes to the OCP value, and the landmarks are where the spec puts them", "[fp8]") {
  for (const Format& F : kFormats)
    for (int code = 0; code < 256; ++code) {
      INFO(F.name << " code " << code);
      const double want = spec_value(F, code);
      const float got = fp8_to_f32(static_cast<uint8_t>(code), F.f);
      if (std::isnan(want)) CHECK(std::isnan(got));
      else CHECK(static_cast<double>(got) == want);
    }
  CHECK(fp8_to_f32(0x7e, kE4M3) == 448.0f);
  CHECK(std::isnan(fp8_to_f32(0x7f, kE4M3)));
  CHECK(fp8_to_f32(0x08, kE4M3) == std::ldexp(1.0f, -6));  // smallest normal
  CHECK(fp8_to_f32(0x01, kE4M3) == std::ldexp(1.0f, -9));  // smallest subnormal
  CHECK(fp8_to_f32(0x7b, kE5M2) == 57344.0f);
  CHECK(std::isinf(fp8_to_f32(0x7c, kE5M2)));
  CHECK(fp8_to_f32(0x01, kE5M2) == std::ldexp(1.0f, -16));
}

TEST_CASE("fp8: encoding is the nearest code, ties to even, saturating, NaN kept", "[fp8]") {
  std::mt19937 rng(7);
  for (const Format& F : kFormats) {
    std::vector<float> probes{0.0f, -0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e-30f, std::numeric_limits<float>::denorm_min()};
    // Every code, every midpoint between neighbours (the ties) and a hair either side.
    for (int mag = 0; mag <= F.f.max_code; ++mag) {
      const double v = spec_value(F, mag), next = spec_value(F, mag + 1);
      for (double x : {v, (v + next) / 2, std::nextafter((v + next) / 2, 0.0), std::nextafter((v + next) / 2, 1e9)})
        for (double s : {1.0, -1.0}) probes.push_back(static_cast<float>(s * x));
    }
    std::uniform_real_distribution<float> wide(-2.0f * static_cast<float>(spec_value(F, F.f.max_code)),
                                               2.0f * static_cast<float>(spec_value(F, F.f.max_code)));
    std::uniform_real_distribution<float> small(-0.05f, 0.05f);
    for (int i = 0; i < 20000; ++i) probes.push_back(i % 2 ? wide(rng) : small(rng));
    for (float x : probes) {
      INFO(F.name << " x=" << x);
      CHECK(static_cast<int>(f32_to_fp8(x, F.f)) == nearest_code(F, x));
    }
  }
}

TEST_CASE("fp8: every finite code survives fp8 -> f32 -> fp8; the pattern's values are exact", "[fp8]") {
  for (const Format& F : kFormats)
    for (int code = 0; code < 256; ++code) {
      if (is_nan_code(F, code) || std::isinf(spec_value(F, code))) continue;
      INFO(F.name << " code " << code);
      CHECK(static_cast<int>(f32_to_fp8(fp8_to_f32(static_cast<uint8_t>(code), F.f), F.f)) == code);
    }
  // Infinities saturate as NCCL's __NV_SATFINITE does.
  CHECK(f32_to_fp8(std::numeric_limits<float>::infinity(), kE5M2) == 0x7b);
  CHECK(f32_to_fp8(-std::numeric_limits<float>::infinity(), kE4M3) == 0xfe);
  // Integers up to 16 (E4M3) and 8 (E5M2), which the check patterns sum to, are exact.
  for (int i = -16; i <= 16; ++i) CHECK(load_value(std::vector<uint8_t>{f32_to_fp8(float(i), kE4M3)}.data(), 0, DataType::kF8E4M3) == i);
  for (int i = -8; i <= 8; ++i) CHECK(load_value(std::vector<uint8_t>{f32_to_fp8(float(i), kE5M2)}.data(), 0, DataType::kF8E5M2) == i);
}
