#include <catch2/catch.hpp>
#include <cmath>

#include "core/half.h"

using namespace ccb;

TEST_CASE("every f16 value survives f16 -> f32 -> f16", "[half]") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    uint16_t v = static_cast<uint16_t>(h);
    float f = f16_to_f32(v);
    if (std::isnan(f)) {
      CHECK(std::isnan(f16_to_f32(f32_to_f16(f))));
      continue;
    }
    REQUIRE(f32_to_f16(f) == v);
  }
}

TEST_CASE("f16 rounds to nearest, ties to even", "[half]") {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even): rounds up.
  CHECK(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);
  CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3c01);
  CHECK(f32_to_f16(65504.0f) == 0x7bff);
  CHECK(f32_to_f16(65519.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);  // rounds to infinity
  CHECK(f32_to_f16(-INFINITY) == 0xfc00);
  CHECK(f32_to_f16(std::ldexp(1.0f, -24)) == 0x0001);      // smallest subnormal
  CHECK(f32_to_f16(std::ldexp(1.0f, -25)) == 0x0000);      // tie with zero: even
  CHECK(f32_to_f16(std::ldexp(3.0f, -26)) == 0x0001);      // 0.75 ulp: up
  CHECK(f32_to_f16(std::ldexp(3.0f, -25)) == 0x0002);      // 1.5 ulp tie: to even (2)
  CHECK(f32_to_f16(-0.0f) == 0x8000);
  CHECK((f32_to_f16(NAN) & 0x7c00) == 0x7c00);
}

TEST_CASE("bf16 rounds to nearest, ties to even, and keeps NaN", "[half]") {
  CHECK(f32_to_bf16(1.0f) == 0x3f80);
  CHECK(f32_to_bf16(bits_f32(0x3f808000)) == 0x3f80);  // tie, even stays
  CHECK(f32_to_bf16(bits_f32(0x3f818000)) == 0x3f82);  // tie, odd rounds up
  CHECK(f32_to_bf16(bits_f32(0x3f808001)) == 0x3f81);
  CHECK(f32_to_bf16(bits_f32(0x7f7fffff)) == 0x7f80);  // max float rounds to inf
  CHECK(f32_to_bf16(bits_f32(0x00000001)) == 0x0000);  // subnormal keeps RNE
  CHECK(f32_to_bf16(bits_f32(0x00008000)) == 0x0000);
  CHECK(f32_to_bf16(bits_f32(0x00018000)) == 0x0002);
  uint16_t nan = f32_to_bf16(bits_f32(0x7f800001));  // a NaN whose payload is all low bits
  CHECK((nan & 0x7f80) == 0x7f80);
  CHECK((nan & 0x007f) != 0);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = bf16_to_f32(static_cast<uint16_t>(h));
    if (!std::isnan(f)) REQUIRE(f32_to_bf16(f) == h);
  }
}
