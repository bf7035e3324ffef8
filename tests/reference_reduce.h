// A serial, obviously-right reduction for the tests: element by element, in double
// (or wrapped integers), one type conversion per step like the kernels.
#pragma once
#include <cstddef>
#include <vector>

#include "core/dtype.h"

namespace ccb::test {

// out[i] = a[i] op b[i] with the kernels' semantics, computed without any kernel.
void reference_reduce(void* out, const void* a, const void* b, size_t count, DataType t, ReduceOp op);
// Deterministic pseudo-random bits for type t (finite values for floating types).
std::vector<char> random_values(size_t count, DataType t, unsigned seed, double scale = 100.0);

}  // namespace ccb::test
