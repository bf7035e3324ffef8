// Reduction kernels built for the avx512 instruction set (flags in lib/CMakeLists.txt).
#include <array>
#define CCB_KERNEL_NS avx512_ns
#define CCB_KERNEL_ISA ::ccb::Isa::kAvx512
#define CCB_HAVE_F16C 1
#include "core/reduce_kernels.inc"

namespace ccb::detail {
const ReduceKernels& avx512_kernels() { return avx512_ns::kernels(); }
}  // namespace ccb::detail
