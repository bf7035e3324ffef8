// One benchmark loop shared by the CLI and the benchmark drivers: buffers allocated and
// registered once, a checked run, warm-up, a barrier, timed iterations inside one
// barrier-bounded window (CPU time and NIC counters read at its edges), and the ranks'
// measurements combined: per iteration the slowest rank.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algo/collective.h"
#include "algo/collectives.h"
#include "algo/communicator.h"
#include "algo/host_hierarchy.h"
#include "algo/splits.h"
#include "bootstrap/bootstrap.h"
#include "core/collective_kind.h"
#include "metrics/latency_stats.h"
#include "metrics/link_utilization.h"
#include "transport/registered_buffer.h"

namespace ccb {

struct RunOptions {
  CollectiveKind collective = CollectiveKind::kAllreduce;
  Algorithm algorithm = Algorithm::kAuto;
  bool tune = false;  // auto: measure each algorithm per size instead of the shipped table
  int root = 0;                // broadcast, reduce, gather and scatter
  std::vector<int> peer_map;   // send/recv: rank r sends to peer_map[r]; empty: r + 1
  std::shared_ptr<const SplitSpec> splits;  // all-to-allv
  DataType dtype = DataType::kF32;
  ReduceOp op = ReduceOp::kSum;
  // 0 / -1: the peers' rule, 1 GiB / size clamped to 5..1000, warm-up a tenth (2..20).
  int iters = 0;
  int warmup = -1;
  bool check = true;
  bool in_place = false;
  ChunkPolicy chunks;
  double line_rate_gbps = 0;  // --line-rate; 0: what the transport's link reports
  int window = 1;             // point-to-point: messages in flight per call (--window)
  bool hops = false;          // time each hop of a ring (--hops; algo/hop_timeline.h)
  std::string variant;        // a transport sweep's setting ("qps=2"); "" otherwise
};

// Messages of the call's size that one call moves each way: the window of a windowed
// collective, else 1. Bandwidth counts them all.
int messages_per_call(const RunOptions& o);

// The reduction as result records show it: "none" for AllGather, which reduces nothing.
std::string_view reduce_op_label(const RunOptions& o);

// A soak's own figures (runner/soak.h), beside the run's.
struct SoakFigures {
  double elapsed_s = 0;
  double busbw_last_gbps = 0, busbw_worst_gbps = 0;  // over batches of about half a second
  std::string stopped_by;   // "duration", "SIGINT", "SIGTERM"; "" while running
  std::string first_wrong;  // the first wrong element of the soak, any size; "" when none
};

struct SizeResult {
  uint64_t bytes = 0;   // the whole buffer, as nccl-tests' "size"
  Algorithm algorithm = Algorithm::kRing;  // the one that ran (auto resolved)
  size_t count = 0;     // elements (per rank for reduce-scatter / all-gather)
  int iters = 0;
  double time_us = 0;   // max over ranks of the per-rank mean (nccl-tests' time)
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  LatencyStats latency_us;  // per iteration, the slowest rank's time
  std::vector<double> iter_max_us;  // those times, in order
  double cpu_pct_mean = 0, cpu_pct_max = 0;
  double line_rate_gbps = 0;              // 0: unknown, and no utilization
  std::optional<double> link_util_pct;    // busbw x 8 / line rate
  std::optional<CounterRate> counter;     // the NICs' own byte counters
  std::optional<double> counter_util_pct;
  uint64_t wrong = 0;   // summed over ranks; 0 when not checked
  std::vector<double> rank_mean_us, rank_cpu_pct;
  std::vector<double> rank_p50_us;  // each rank's median iteration
  // --hops: per rank r, the median transfer time of a ring message from r-1 into r;
  // empty when not asked or when the algorithm has no ring.
  std::vector<double> hop_in_us;
  std::optional<SoakFigures> soak;  // a soak's row
  // --algo hier: this rank's mean time per timed call in each leg (rank 0's is kept).
  std::optional<LegTimes> legs;
};

class CollectiveRunner {
 public:
  CollectiveRunner(Communicator& comm, Bootstrap& bootstrap, RunOptions options);
  ~CollectiveRunner();
  SizeResult run(uint64_t bytes);

  // The pieces of run(), for drivers that time each call themselves (Google Benchmark).
  // prepare: validates, sizes the buffers, runs once checked and leaves the inputs
  // ready; returns this rank's wrong elements. time_one: seconds of one call.
  uint64_t prepare(uint64_t bytes);
  void resize(uint64_t bytes);  // the size of later time_one() calls, inputs unchecked
  double time_one();
  uint64_t check_after_timing();  // out of place only; 0 otherwise
  // A soak's call (runner/soak.h): in place, the inputs renewed; out of place, the
  // output poisoned first, so a call that delivers nothing cannot pass on the last
  // call's data. Returns the call's seconds; check_output() then judges it.
  double soak_call();
  uint64_t check_output() { return check(count_); }
  // The receive buffer (the test-only fault hook flips a byte of it), and where a
  // pointer into it lies: the byte offset, or -1 when it points elsewhere.
  char* output_bytes() { return recv_buf_.data(); }
  size_t output_size() const { return recv_buf_.size(); }
  long long output_offset(const char* at) const;
  Algorithm active_algorithm() const { return active_; }  // of the prepared size
  int default_iters(uint64_t bytes) const;
  const LinkInfo& link() const { return link_; }
  double line_rate_gbps() const { return line_rate_; }
  const RunOptions& options() const { return opt_; }
  int rank() const { return comm_.rank(); }

 private:
  void time_calls(int calls, std::vector<double>& iter_us);  // appends each call's microseconds
  bool ensure_buffers(uint64_t bytes);  // true when it allocated
  void size_for(uint64_t bytes);       // count_, and the splits of that size
  CollectiveArgs args(size_t count) const;
  void run_once(size_t count);
  void connect_peers();
  Algorithm resolve(uint64_t bytes);
  Algorithm tune(uint64_t bytes);
  std::vector<Algorithm> tune_candidates() const;
  double hop_in_median_us(const HopTimeline& timeline);
  uint64_t check(size_t count);
  void fill_inputs(size_t count, bool zero);
  size_t elements_per_rank(uint64_t bytes) const;

  Communicator& comm_;
  Bootstrap& bootstrap_;
  RunOptions opt_;
  LinkInfo link_;
  double line_rate_ = 0;
  size_t count_ = 0;  // prepared size, in elements
  Algorithm active_ = Algorithm::kRing;  // what run_once runs: never kAuto
  std::map<uint64_t, Algorithm> tuned_;  // --tune's choice per size
  std::optional<double> left_offset_us_;  // --hops: the left neighbour's clock, measured once
  SplitMatrix splits_;                   // all-to-allv's, for the prepared size
  RegisteredBuffer send_buf_, recv_buf_;  // from the communicator's memory space
};

}  // namespace ccb
