// Element-wise reduction kernels: dst[i] = a[i] (op) b[i], vectorised with runtime dispatch.
#pragma once
#include <cstddef>
#include <string_view>

#include "core/dtype.h"

namespace ccb {

enum class Isa { kScalar, kAvx2, kAvx512 };

using ReduceFn = void (*)(void* dst, const void* a, const void* b, size_t count);
using ScaleFn = void (*)(void* data, size_t count, int divisor);

// One instruction set's kernels. kAvg reduces as kSum; the collective divides once at
// the end with `divide`, as NCCL does for integers.
struct ReduceKernels {
  Isa isa;
  ReduceFn fn[kDataTypeCount][5];
  ScaleFn divide[kDataTypeCount];
};

// dst may alias a or b exactly (in-place); partial overlap is not allowed.
void reduce(void* dst, const void* a, const void* b, size_t count, DataType t, ReduceOp op);
// data[i] /= divisor (integer division truncates, floating point rounds to nearest even).
void divide(void* data, size_t count, DataType t, int divisor);

bool isa_supported(Isa isa);
std::string_view isa_name(Isa isa);
Isa parse_isa(std::string_view s);  // "scalar", "avx2", "avx512"
// Chosen once at first use: the best supported, or CCB_ISA from the environment.
Isa active_isa();
// For tests and benchmarks: the kernels of one ISA, which must be supported.
const ReduceKernels& kernels_for(Isa isa);

namespace detail {
const ReduceKernels& scalar_kernels();
const ReduceKernels& avx2_kernels();
const ReduceKernels& avx512_kernels();
}  // namespace detail

}  // namespace ccb
