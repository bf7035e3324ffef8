// Reduction kernel throughput per ISA, type and operator: the ceiling for how fast a
// collective can reduce on this CPU. Bytes processed = 3 x count x size (two reads and
// one write per element).
#include <benchmark/benchmark.h>

#include <cstdio>

#include "core/aligned_buffer.h"
#include "core/reduce.h"

namespace {

void BM_Reduce(benchmark::State& state, ccb::Isa isa, ccb::DataType t, ccb::ReduceOp op) {
  if (!ccb::isa_supported(isa)) {
    state.SkipWithError("ISA not supported on this CPU");
    return;
  }
  const auto& k = ccb::kernels_for(isa);
  const size_t bytes = static_cast<size_t>(state.range(0));
  const size_t count = bytes / ccb::dtype_size(t);
  ccb::AlignedBuffer a(bytes), b(bytes);
  auto fn = k.fn[static_cast<size_t>(t)][static_cast<size_t>(op)];
  for (auto _ : state) {
    fn(a.data(), a.data(), b.data(), count);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(3 * bytes));
}

void register_all() {
  for (auto isa : {ccb::Isa::kScalar, ccb::Isa::kAvx2, ccb::Isa::kAvx512})
    for (auto t : ccb::all_dtypes())
      for (auto op : {ccb::ReduceOp::kSum, ccb::ReduceOp::kMax}) {
        std::string name = "reduce/" + std::string(ccb::isa_name(isa)) + "/" + std::string(ccb::dtype_name(t)) + "/" +
                           std::string(ccb::op_name(op));
        benchmark::RegisterBenchmark(name.c_str(), BM_Reduce, isa, t, op)->Arg(256 << 10)->Arg(16 << 20);
      }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // A filter that matches nothing, or does not compile, runs nothing: that must not pass.
  size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (ran == 0) {
    std::fprintf(stderr, "bench_reduce: error: --benchmark_filter '%s' matches no benchmark (or is not a regular "
                         "expression): see --benchmark_list_tests\n", benchmark::GetBenchmarkFilter().c_str());
    return 2;
  }
  return 0;
}
