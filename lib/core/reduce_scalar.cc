// Reduction kernels built for the scalar instruction set (flags in lib/CMakeLists.txt).
#include <array>
#define CCB_KERNEL_NS scalar_ns
#define CCB_KERNEL_ISA ::ccb::Isa::kScalar

#include "core/reduce_kernels.inc"

namespace ccb::detail {
const ReduceKernels& scalar_kernels() { return scalar_ns::kernels(); }
}  // namespace ccb::detail
