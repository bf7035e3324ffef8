#include <catch2/catch.hpp>
#include <cstring>

#include "core/half.h"
#include "core/reduce.h"
#include "reference_reduce.h"

using namespace ccb;

namespace {

std::vector<Isa> supported_isas() {
  std::vector<Isa> v;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512})
    if (isa_supported(isa)) v.push_back(isa);
  return v;
}

}  // namespace

TEST_CASE("every kernel matches the scalar reference bit for bit", "[reduce]") {
  // Odd counts exercise the vector tails; results must be identical on every ISA.
  for (Isa isa : supported_isas()) {
    const ReduceKernels& k = kernels_for(isa);
    for (DataType t : all_dtypes()) {
      for (ReduceOp op : all_ops()) {
        for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{33}, size_t{1029}}) {
          INFO("isa " << isa_name(isa) << " type " << dtype_name(t) << " op " << op_name(op) << " count " << count);
          auto a = test::random_values(count, t, 1), b = test::random_values(count, t, 2);
          std::vector<char> got(a.size()), want(a.size());
          k.fn[static_cast<size_t>(t)][static_cast<size_t>(op)](got.data(), a.data(), b.data(), count);
          test::reference_reduce(want.data(), a.data(), b.data(), count, t, op);
          REQUIRE(std::memcmp(got.data(), want.data(), count * dtype_size(t)) == 0);
          // In place (dst == a) gives the same bits.
          k.fn[static_cast<size_t>(t)][static_cast<size_t>(op)](a.data(), a.data(), b.data(), count);
          REQUIRE(std::memcmp(a.data(), want.data(), count * dtype_size(t)) == 0);
        }
      }
    }
  }
}

TEST_CASE("half-precision sums round to nearest even on every ISA", "[reduce][half]") {
  // 2048 + 1 is a tie in f16 (ulp 2 there): RNE keeps 2048; 2050 + 1 rounds to 2052.
  const uint16_t a[] = {f32_to_f16(2048.f), f32_to_f16(2050.f), f32_to_f16(65504.f), f32_to_f16(1.f)};
  const uint16_t b[] = {f32_to_f16(1.f), f32_to_f16(1.f), f32_to_f16(65504.f), f32_to_f16(-1.f)};
  for (Isa isa : supported_isas()) {
    uint16_t out[4];
    kernels_for(isa).fn[static_cast<size_t>(DataType::kF16)][0](out, a, b, 4);
    CHECK(f16_to_f32(out[0]) == 2048.f);
    CHECK(f16_to_f32(out[1]) == 2052.f);
    CHECK(out[2] == 0x7c00);  // overflow to infinity
    CHECK(out[3] == 0x0000);
  }
  // bf16: 256 + 1 is a tie (ulp 2): stays 256; 258 + 1 goes to 260.
  const uint16_t c[] = {f32_to_bf16(256.f), f32_to_bf16(258.f)};
  const uint16_t d[] = {f32_to_bf16(1.f), f32_to_bf16(1.f)};
  for (Isa isa : supported_isas()) {
    uint16_t out[2];
    kernels_for(isa).fn[static_cast<size_t>(DataType::kBF16)][0](out, c, d, 2);
    CHECK(bf16_to_f32(out[0]) == 256.f);
    CHECK(bf16_to_f32(out[1]) == 260.f);
  }
}

TEST_CASE("integer sums and products wrap around", "[reduce]") {
  int32_t a[] = {INT32_MAX, -5}, b[] = {1, 3}, out[2];
  reduce(out, a, b, 2, DataType::kI32, ReduceOp::kSum);
  CHECK(out[0] == INT32_MIN);
  CHECK(out[1] == -2);
  uint8_t x[] = {200, 16}, y[] = {100, 16}, z[2];
  reduce(z, x, y, 2, DataType::kU8, ReduceOp::kSum);
  CHECK(z[0] == 44);
  reduce(z, x, y, 2, DataType::kU8, ReduceOp::kProd);
  CHECK(z[1] == 0);
}

TEST_CASE("avg divides once: truncating for integers, rounding for floats", "[reduce]") {
  int32_t i[] = {7, -7};
  divide(i, 2, DataType::kI32, 2);
  CHECK(i[0] == 3);
  CHECK(i[1] == -3);
  float f[] = {1.f};
  divide(f, 1, DataType::kF32, 3);
  CHECK(f[0] == 1.f / 3.f);
  uint16_t h[] = {f32_to_f16(1.f)};
  divide(h, 1, DataType::kF16, 3);
  CHECK(h[0] == f32_to_f16(1.f / 3.f));
}

TEST_CASE("ISA names parse and CCB_ISA picks a supported one", "[reduce]") {
  CHECK(parse_isa("avx2") == Isa::kAvx2);
  CHECK_THROWS_WITH(parse_isa("sse9"), Catch::Contains("unknown ISA"));
  CHECK(isa_supported(active_isa()));
  if (!isa_supported(Isa::kAvx512)) CHECK_THROWS_WITH(kernels_for(Isa::kAvx512), Catch::Contains("does not support"));
}
