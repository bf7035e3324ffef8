#include "core/reduce.h"

#include <cpuid.h>

#include <cstdlib>
#include <string>

#include "core/error.h"

namespace ccb {

// F16C by cpuid: clang's __builtin_cpu_supports does not know the name.
static bool has_f16c() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}

bool isa_supported(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return true;
    case Isa::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && has_f16c();
    case Isa::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512bf16") && has_f16c();
  }
  return false;
}

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar: return "scalar";
    case Isa::kAvx2: return "avx2";
    case Isa::kAvx512: return "avx512";
  }
  return "?";
}

Isa parse_isa(std::string_view s) {
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512})
    if (s == isa_name(isa)) return isa;
  throw_invalid("unknown ISA '" + std::string(s) + "': use scalar, avx2 or avx512");
}

const ReduceKernels& kernels_for(Isa isa) {
  if (!isa_supported(isa))
    throw_invalid("this CPU does not support the " + std::string(isa_name(isa)) +
                  " kernels: unset CCB_ISA or pick a supported one");
  switch (isa) {
    case Isa::kAvx512: return detail::avx512_kernels();
    case Isa::kAvx2: return detail::avx2_kernels();
    case Isa::kScalar: break;
  }
  return detail::scalar_kernels();
}

static Isa choose_isa() {
  if (const char* forced = std::getenv("CCB_ISA"); forced && *forced) return parse_isa(forced);
  for (Isa isa : {Isa::kAvx512, Isa::kAvx2})
    if (isa_supported(isa)) return isa;
  return Isa::kScalar;
}

static const ReduceKernels& active_kernels() {
  static const ReduceKernels& k = kernels_for(choose_isa());
  return k;
}

Isa active_isa() { return active_kernels().isa; }

void reduce(void* dst, const void* a, const void* b, size_t count, DataType t, ReduceOp op) {
  active_kernels().fn[static_cast<size_t>(t)][static_cast<size_t>(op)](dst, a, b, count);
}

void divide(void* data, size_t count, DataType t, int divisor) {
  active_kernels().divide[static_cast<size_t>(t)](data, count, divisor);
}

}  // namespace ccb
