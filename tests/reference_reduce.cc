#include "reference_reduce.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>

#include "core/fp8.h"
#include "core/half.h"
#include "algo/data_pattern.h"

namespace ccb::test {
namespace {

template <class T>
T int_op(T a, T b, ReduceOp op) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg: return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    case ReduceOp::kProd: return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    case ReduceOp::kMin: return b < a ? b : a;
    case ReduceOp::kMax: return a < b ? b : a;
  }
  return a;
}

template <class F>
F float_op(F a, F b, ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg: return a + b;
    case ReduceOp::kProd: return a * b;
    case ReduceOp::kMin: return b < a ? b : a;
    case ReduceOp::kMax: return a < b ? b : a;
  }
  return a;
}

template <class T>
void ints(void* out, const void* a, const void* b, size_t n, ReduceOp op) {
  for (size_t i = 0; i < n; ++i) {
    T x, y;
    std::memcpy(&x, static_cast<const char*>(a) + i * sizeof(T), sizeof(T));
    std::memcpy(&y, static_cast<const char*>(b) + i * sizeof(T), sizeof(T));
    T z = int_op(x, y, op);
    std::memcpy(static_cast<char*>(out) + i * sizeof(T), &z, sizeof(T));
  }
}

}  // namespace

void reference_reduce(void* out, const void* a, const void* b, size_t n, DataType t, ReduceOp op) {
  auto* o16 = static_cast<uint16_t*>(out);
  const auto* a16 = static_cast<const uint16_t*>(a);
  const auto* b16 = static_cast<const uint16_t*>(b);
  switch (t) {
    case DataType::kF32:
      for (size_t i = 0; i < n; ++i)
        static_cast<float*>(out)[i] = float_op(static_cast<const float*>(a)[i], static_cast<const float*>(b)[i], op);
      break;
    case DataType::kF64:
      for (size_t i = 0; i < n; ++i)
        static_cast<double*>(out)[i] = float_op(static_cast<const double*>(a)[i], static_cast<const double*>(b)[i], op);
      break;
    case DataType::kF16:
      for (size_t i = 0; i < n; ++i) o16[i] = f32_to_f16(float_op(f16_to_f32(a16[i]), f16_to_f32(b16[i]), op));
      break;
    case DataType::kBF16:
      for (size_t i = 0; i < n; ++i) o16[i] = f32_to_bf16(float_op(bf16_to_f32(a16[i]), bf16_to_f32(b16[i]), op));
      break;
    case DataType::kI32: ints<int32_t>(out, a, b, n, op); break;
    case DataType::kI64: ints<int64_t>(out, a, b, n, op); break;
    case DataType::kU8: ints<uint8_t>(out, a, b, n, op); break;
    case DataType::kI8: ints<int8_t>(out, a, b, n, op); break;
    case DataType::kU32: ints<uint32_t>(out, a, b, n, op); break;
    case DataType::kU64: ints<uint64_t>(out, a, b, n, op); break;
    case DataType::kF8E4M3:
    case DataType::kF8E5M2: {
      const Fp8Format& f = t == DataType::kF8E4M3 ? kE4M3 : kE5M2;
      auto* o8 = static_cast<uint8_t*>(out);
      const auto* a8 = static_cast<const uint8_t*>(a);
      const auto* b8 = static_cast<const uint8_t*>(b);
      for (size_t i = 0; i < n; ++i) o8[i] = f32_to_fp8(float_op(fp8_to_f32(a8[i], f), fp8_to_f32(b8[i], f), op), f);
      break;
    }
  }
}

std::vector<char> random_values(size_t count, DataType t, unsigned seed, double scale) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-scale, scale);
  std::vector<char> out(count * dtype_size(t) + 8);
  for (size_t i = 0; i < count; ++i) {
    if (is_floating(t)) store_value(out.data(), i, t, real(rng));
    else {
      uint64_t bits = rng();
      std::memcpy(out.data() + i * dtype_size(t), &bits, dtype_size(t));
    }
  }
  return out;
}

}  // namespace ccb::test
