// Reduction kernels built for the avx2 instruction set (flags in lib/CMakeLists.txt).
#include <array>
#define CCB_KERNEL_NS avx2_ns
#define CCB_KERNEL_ISA ::ccb::Isa::kAvx2
#define CCB_HAVE_F16C 1
#include "core/reduce_kernels.inc"

namespace ccb::detail {
const ReduceKernels& avx2_kernels() { return avx2_ns::kernels(); }
}  // namespace ccb::detail
