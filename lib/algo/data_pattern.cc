#include "algo/data_pattern.h"

#include <cmath>
#include <cstring>

#include "core/fp8.h"
#include "core/half.h"

namespace ccb {
namespace {

// Largest integer magnitude the type holds exactly, spread so a sum over `world`
// ranks stays exact.
uint64_t exact_limit(DataType t) {
  switch (t) {
    case DataType::kF16: return 2048;
    case DataType::kBF16: return 256;
    case DataType::kF8E4M3: return 16;
    case DataType::kF8E5M2: return 8;
    case DataType::kF32: return 1u << 24;
    default: return 1u << 30;
  }
}

uint64_t modulus(const PatternSpec& p) {
  uint64_t m = exact_limit(p.dtype) / static_cast<uint64_t>(p.world);
  return std::max<uint64_t>(1, std::min<uint64_t>(m, 97));
}

template <class T>
T wrap_to(double v) {
  // Integer types wrap like the kernels do (two's complement).
  auto u = static_cast<uint64_t>(static_cast<int64_t>(v));
  return static_cast<T>(u);
}

}  // namespace

double pattern_value(const PatternSpec& p, int rank, size_t i) {
  if (p.op == ReduceOp::kProd) return (i + rank) % static_cast<size_t>(p.world) == 0 ? 2.0 : 1.0;
  double v = static_cast<double>((i * 7 + static_cast<size_t>(rank) * 13) % modulus(p));
  // Mix in negatives for signed types so min and max are exercised on both sides.
  // Never -0: min(0, -0) depends on the order, and the check is bit-exact.
  if (is_signed(p.dtype) && (p.op == ReduceOp::kMin || p.op == ReduceOp::kMax) && (i + rank) % 3 == 0 && v != 0) v = -v;
  return v;
}

double expected_value(const PatternSpec& p, size_t i) {
  double acc = pattern_value(p, 0, i);
  for (int r = 1; r < p.world; ++r) {
    double v = pattern_value(p, r, i);
    switch (p.op) {
      case ReduceOp::kSum:
      case ReduceOp::kAvg: acc += v; break;
      case ReduceOp::kProd: acc *= v; break;
      case ReduceOp::kMin: acc = std::min(acc, v); break;
      case ReduceOp::kMax: acc = std::max(acc, v); break;
    }
  }
  return acc;
}

void store_value(void* dst, size_t i, DataType t, double v) {
  switch (t) {
    case DataType::kF32: static_cast<float*>(dst)[i] = static_cast<float>(v); break;
    case DataType::kF64: static_cast<double*>(dst)[i] = v; break;
    case DataType::kF16: static_cast<uint16_t*>(dst)[i] = f32_to_f16(static_cast<float>(v)); break;
    case DataType::kBF16: static_cast<uint16_t*>(dst)[i] = f32_to_bf16(static_cast<float>(v)); break;
    case DataType::kI32: static_cast<int32_t*>(dst)[i] = wrap_to<int32_t>(v); break;
    case DataType::kI64: static_cast<int64_t*>(dst)[i] = wrap_to<int64_t>(v); break;
    case DataType::kU8: static_cast<uint8_t*>(dst)[i] = wrap_to<uint8_t>(v); break;
    case DataType::kI8: static_cast<int8_t*>(dst)[i] = wrap_to<int8_t>(v); break;
    case DataType::kU32: static_cast<uint32_t*>(dst)[i] = wrap_to<uint32_t>(v); break;
    case DataType::kU64: static_cast<uint64_t*>(dst)[i] = wrap_to<uint64_t>(v); break;
    case DataType::kF8E4M3: static_cast<uint8_t*>(dst)[i] = f32_to_fp8(static_cast<float>(v), kE4M3); break;
    case DataType::kF8E5M2: static_cast<uint8_t*>(dst)[i] = f32_to_fp8(static_cast<float>(v), kE5M2); break;
  }
}

double load_value(const void* src, size_t i, DataType t) {
  switch (t) {
    case DataType::kF32: return static_cast<const float*>(src)[i];
    case DataType::kF64: return static_cast<const double*>(src)[i];
    case DataType::kF16: return f16_to_f32(static_cast<const uint16_t*>(src)[i]);
    case DataType::kBF16: return bf16_to_f32(static_cast<const uint16_t*>(src)[i]);
    case DataType::kI32: return static_cast<const int32_t*>(src)[i];
    case DataType::kI64: return static_cast<double>(static_cast<const int64_t*>(src)[i]);
    case DataType::kU8: return static_cast<const uint8_t*>(src)[i];
    case DataType::kI8: return static_cast<const int8_t*>(src)[i];
    case DataType::kU32: return static_cast<const uint32_t*>(src)[i];
    case DataType::kU64: return static_cast<double>(static_cast<const uint64_t*>(src)[i]);
    case DataType::kF8E4M3: return fp8_to_f32(static_cast<const uint8_t*>(src)[i], kE4M3);
    case DataType::kF8E5M2: return fp8_to_f32(static_cast<const uint8_t*>(src)[i], kE5M2);
  }
  return 0;
}

void fill_pattern(void* dst, size_t count, size_t first, const PatternSpec& p, int rank) {
  for (size_t i = 0; i < count; ++i) store_value(dst, i, p.dtype, pattern_value(p, rank, first + i));
}

namespace {
thread_local MismatchCapture* t_capture = nullptr;

void note_mismatch(const void* data, size_t i, size_t element, const PatternSpec& p, double expected) {
  if (!t_capture) return;
  const char* at = static_cast<const char*>(data) + i * dtype_size(p.dtype);
  t_capture->note(Mismatch{at, element, expected, load_value(data, i, p.dtype)});
}
}  // namespace

MismatchCapture::MismatchCapture() : outer_(t_capture) { t_capture = this; }
MismatchCapture::~MismatchCapture() { t_capture = outer_; }

uint64_t count_wrong(const void* data, size_t count, size_t first, const PatternSpec& p) {
  const size_t esize = dtype_size(p.dtype);
  char want[8];
  uint64_t wrong = 0;
  for (size_t i = 0; i < count; ++i) {
    double e = expected_value(p, first + i);
    if (p.op == ReduceOp::kAvg) {
      // Mirror the kernels: integers truncate, floats divide once in their own width.
      if (is_floating(p.dtype)) {
        store_value(want, 0, p.dtype, e);
        double stored = load_value(want, 0, p.dtype);
        e = p.dtype == DataType::kF64 ? stored / p.world
                                      : static_cast<double>(static_cast<float>(stored) / static_cast<float>(p.world));
      } else {
        store_value(want, 0, p.dtype, e);  // the sum wraps first, as in the kernels
        e = std::trunc(load_value(want, 0, p.dtype) / p.world);
      }
    }
    store_value(want, 0, p.dtype, e);
    if (std::memcmp(want, static_cast<const char*>(data) + i * esize, esize) != 0) {
      if (wrong++ == 0) note_mismatch(data, i, first + i, p, load_value(want, 0, p.dtype));
    }
  }
  return wrong;
}

uint64_t count_wrong_input(const void* data, size_t count, size_t first, const PatternSpec& p, int rank) {
  const size_t esize = dtype_size(p.dtype);
  char want[8];
  uint64_t wrong = 0;
  for (size_t i = 0; i < count; ++i) {
    store_value(want, 0, p.dtype, pattern_value(p, rank, first + i));
    if (std::memcmp(want, static_cast<const char*>(data) + i * esize, esize) != 0) {
      if (wrong++ == 0) note_mismatch(data, i, first + i, p, load_value(want, 0, p.dtype));
    }
  }
  return wrong;
}

}  // namespace ccb
