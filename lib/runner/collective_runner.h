// One benchmark loop shared by the CLI and the benchmark drivers: buffers allocated and
// registered once, a checked run, warm-up, a barrier, timed iterations, and the time
// per size taken as the slowest rank's mean.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "algo/collective.h"
#include "algo/communicator.h"
#include "bootstrap/bootstrap.h"
#include "core/aligned_buffer.h"

namespace ccb {

enum class Algorithm { kRing, kTree };
enum class CollectiveKind { kAllreduce, kReduceScatter, kAllGather };

std::string_view algorithm_name(Algorithm a);
Algorithm parse_algorithm(std::string_view s);
std::string_view collective_name(CollectiveKind c);
CollectiveKind parse_collective(std::string_view s);
// nccl-tests' bus bandwidth factor: 2(n-1)/n for AllReduce, (n-1)/n for the others.
double busbw_factor(CollectiveKind c, int ranks);

// Throw kInvalidArgument, naming the fix, for what the collective cannot take.
void validate_size(CollectiveKind c, DataType t, int ranks, uint64_t bytes);
void validate_algorithm(CollectiveKind c, Algorithm a);

struct RunOptions {
  CollectiveKind collective = CollectiveKind::kAllreduce;
  Algorithm algorithm = Algorithm::kRing;
  DataType dtype = DataType::kF32;
  ReduceOp op = ReduceOp::kSum;
  // 0 / -1: the peers' rule, 1 GiB / size clamped to 5..1000, warm-up a tenth (2..20).
  int iters = 0;
  int warmup = -1;
  bool check = true;
  bool in_place = false;
  ChunkPolicy chunks;
};

struct SizeResult {
  uint64_t bytes = 0;   // the whole buffer, as nccl-tests' "size"
  size_t count = 0;     // elements (per rank for reduce-scatter / all-gather)
  int iters = 0;
  double time_us = 0;   // max over ranks of the per-rank mean
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  uint64_t wrong = 0;   // summed over ranks; 0 when not checked
  std::vector<double> rank_mean_us;
};

class CollectiveRunner {
 public:
  CollectiveRunner(Communicator& comm, Bootstrap& bootstrap, RunOptions options);
  ~CollectiveRunner();
  SizeResult run(uint64_t bytes);

 private:
  void ensure_buffers(uint64_t bytes);
  void run_once(size_t count);
  uint64_t check(size_t count);
  void fill_inputs(size_t count, bool zero);
  size_t elements_per_rank(uint64_t bytes) const;

  Communicator& comm_;
  Bootstrap& bootstrap_;
  RunOptions opt_;
  AlignedBuffer send_buf_, recv_buf_;
  MemoryRegionPtr send_mr_, recv_mr_;
};

}  // namespace ccb
