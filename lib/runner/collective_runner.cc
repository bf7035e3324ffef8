#include "runner/collective_runner.h"

#include <algorithm>
#include <cstring>

#include "algo/all_gather.h"
#include "algo/reduce_scatter.h"
#include "algo/ring_allreduce.h"
#include "algo/tree_allreduce.h"
#include "core/error.h"
#include "metrics/bandwidth.h"
#include "metrics/cpu_usage.h"
#include "runner/data_pattern.h"
#include "runner/rank_report.h"

namespace ccb {

std::string_view algorithm_name(Algorithm a) { return a == Algorithm::kRing ? "ring" : "tree"; }

Algorithm parse_algorithm(std::string_view s) {
  if (s == "ring") return Algorithm::kRing;
  if (s == "tree") return Algorithm::kTree;
  throw_invalid("unknown algorithm '" + std::string(s) + "': use ring or tree");
}

void validate_size(CollectiveKind c, DataType t, int ranks, uint64_t bytes) {
  const uint64_t esize = dtype_size(t);
  const uint64_t unit = c == CollectiveKind::kAllreduce ? esize : esize * static_cast<uint64_t>(ranks);
  if (bytes % unit != 0)
    throw_invalid("size " + std::to_string(bytes) + " B is not a multiple of " + std::to_string(unit) + " B (" +
                  std::string(dtype_name(t)) + " is " + std::to_string(esize) + " B" +
                  (unit != esize ? ", times " + std::to_string(ranks) + " ranks" : "") + "): pick another size");
}

void validate_algorithm(CollectiveKind c, Algorithm a) {
  if (a == Algorithm::kTree && c != CollectiveKind::kAllreduce)
    throw_invalid("the tree algorithm exists for allreduce only: use --algo ring for " + std::string(collective_name(c)));
}

std::string_view reduce_op_label(const RunOptions& o) {
  return o.collective == CollectiveKind::kAllGather ? "none" : op_name(o.op);
}

CollectiveRunner::CollectiveRunner(Communicator& comm, Bootstrap& bootstrap, RunOptions options)
    : comm_(comm), bootstrap_(bootstrap), opt_(options), link_(comm.transport().link()) {
  validate_algorithm(opt_.collective, opt_.algorithm);
  line_rate_ = opt_.line_rate_gbps > 0 ? opt_.line_rate_gbps : link_.line_rate_gbps;
}

CollectiveRunner::~CollectiveRunner() {
  send_mr_.reset();
  recv_mr_.reset();
}

size_t CollectiveRunner::elements_per_rank(uint64_t bytes) const {
  size_t total = bytes / dtype_size(opt_.dtype);
  return opt_.collective == CollectiveKind::kAllreduce ? total : total / comm_.size();
}

bool CollectiveRunner::ensure_buffers(uint64_t bytes) {
  if (send_buf_.size() >= bytes && send_mr_) return false;
  send_mr_.reset();
  recv_mr_.reset();
  size_t alloc = std::max<uint64_t>(bytes, 4096);
  send_buf_ = AlignedBuffer(alloc);
  recv_buf_ = AlignedBuffer(alloc);
  send_mr_ = comm_.transport().register_memory(send_buf_.data(), alloc);
  recv_mr_ = comm_.transport().register_memory(recv_buf_.data(), alloc);
  return true;
}

void CollectiveRunner::run_once(size_t count) {
  const size_t esize = dtype_size(opt_.dtype);
  const size_t own = static_cast<size_t>(comm_.rank()) * count * esize;
  CollectiveArgs a{{send_mr_.get(), 0}, {recv_mr_.get(), 0}, count, opt_.dtype, opt_.op};
  switch (opt_.collective) {
    case CollectiveKind::kAllreduce:
      if (opt_.in_place) a.send = a.recv;
      if (opt_.algorithm == Algorithm::kTree) TreeAllreduce(comm_, opt_.chunks).run(a);
      else RingAllreduce(comm_, opt_.chunks).run(a);
      break;
    case CollectiveKind::kReduceScatter:
      if (opt_.in_place) a.recv = {send_mr_.get(), own};
      RingReduceScatter(comm_, opt_.chunks).run(a);
      break;
    case CollectiveKind::kAllGather:
      if (opt_.in_place) a.send = {recv_mr_.get(), own};
      RingAllGather(comm_, opt_.chunks).run(a);
      break;
  }
}

// Inputs go where the collective reads them, in place or not.
void CollectiveRunner::fill_inputs(size_t count, bool zero) {
  const size_t esize = dtype_size(opt_.dtype);
  const int r = comm_.rank(), n = comm_.size();
  PatternSpec p{opt_.dtype, opt_.op, n};
  auto fill = [&](char* dst, size_t cnt, size_t first) {
    if (zero) std::memset(dst, 0, cnt * esize);
    else fill_pattern(dst, cnt, first, p, r);
  };
  switch (opt_.collective) {
    case CollectiveKind::kAllreduce:
      fill(opt_.in_place ? recv_buf_.data() : send_buf_.data(), count, 0);
      break;
    case CollectiveKind::kReduceScatter:
      fill(send_buf_.data(), count * n, 0);
      break;
    case CollectiveKind::kAllGather:
      // Rank r contributes the elements r*count.. of the gathered result.
      fill(opt_.in_place ? recv_buf_.data() + r * count * esize : send_buf_.data(), count, r * count);
      break;
  }
}

uint64_t CollectiveRunner::check(size_t count) {
  const size_t esize = dtype_size(opt_.dtype);
  const int r = comm_.rank(), n = comm_.size();
  PatternSpec p{opt_.dtype, opt_.op, n};
  switch (opt_.collective) {
    case CollectiveKind::kAllreduce:
      return count_wrong(recv_buf_.data(), count, 0, p);
    case CollectiveKind::kReduceScatter: {
      const char* out = opt_.in_place ? send_buf_.data() + r * count * esize : recv_buf_.data();
      return count_wrong(out, count, r * count, p);
    }
    case CollectiveKind::kAllGather: {
      // Gathered element i is rank (i / count)'s own input: compare with that.
      uint64_t wrong = 0;
      char want[8];
      for (size_t i = 0; i < count * n; ++i) {
        store_value(want, 0, opt_.dtype, pattern_value(p, static_cast<int>(i / count), i));
        if (std::memcmp(want, recv_buf_.data() + i * esize, esize) != 0) ++wrong;
      }
      return wrong;
    }
  }
  return 0;
}

int CollectiveRunner::default_iters(uint64_t bytes) const {
  if (opt_.iters > 0) return opt_.iters;
  return static_cast<int>(std::clamp<uint64_t>((1ull << 30) / std::max<uint64_t>(bytes, 1), 5, 1000));
}

uint64_t CollectiveRunner::prepare(uint64_t bytes) {
  validate_size(opt_.collective, opt_.dtype, comm_.size(), bytes);
  count_ = elements_per_rank(bytes);
  ensure_buffers(bytes);
  uint64_t wrong = 0;
  if (opt_.check) {
    fill_inputs(count_, false);
    run_once(count_);
    wrong = check(count_);
  }
  // In place, repeated sums would overflow: time on zeros (same work, stable values).
  // Out of place the checked run left the inputs as they were.
  if (opt_.in_place || !opt_.check) fill_inputs(count_, opt_.in_place);
  return wrong;
}

void CollectiveRunner::resize(uint64_t bytes) {
  validate_size(opt_.collective, opt_.dtype, comm_.size(), bytes);
  count_ = elements_per_rank(bytes);
  if (ensure_buffers(bytes)) fill_inputs(count_, true);  // fresh memory may hold NaNs or denormals
}

double CollectiveRunner::time_one() {
  auto t0 = Clock::now();
  run_once(count_);
  return seconds_since(t0);
}

uint64_t CollectiveRunner::check_after_timing() {
  return opt_.check && !opt_.in_place ? check(count_) : 0;
}

SizeResult CollectiveRunner::run(uint64_t bytes) {
  SizeResult res;
  res.bytes = bytes;
  res.iters = default_iters(bytes);
  const int warmup = opt_.warmup >= 0 ? opt_.warmup : std::clamp(res.iters / 10, 2, 20);
  RankReport mine;
  mine.wrong = prepare(bytes);
  res.count = count_;
  for (int i = 0; i < warmup; ++i) run_once(count_);

  bootstrap_.barrier();
  auto sent0 = nic_bytes_sent(link_);
  CpuWindow cpu;
  for (int i = 0; i < res.iters; ++i) mine.iter_us.push_back(time_one() * 1e6);
  bootstrap_.barrier();  // the window closes when every rank is done
  mine.window_s = cpu.wall_seconds();
  mine.cpu_pct = cpu.percent();
  auto sent1 = nic_bytes_sent(link_);
  if (sent0 && sent1) mine.counter = {nic_counter_key(link_), *sent1 - *sent0, mine.window_s};
  mine.wrong += check_after_timing();

  CombinedReport all = exchange_reports(bootstrap_, mine);
  res.time_us = all.time_us;
  res.latency_us = all.latency_us;
  res.iter_max_us = all.iter_max_us;
  res.rank_mean_us = all.rank_mean_us;
  res.rank_cpu_pct = all.rank_cpu_pct;
  res.cpu_pct_mean = all.cpu_pct_mean;
  res.cpu_pct_max = all.cpu_pct_max;
  res.wrong = all.wrong;
  res.algbw_gbps = algbw_gbps(bytes, res.time_us * 1e-6);
  res.busbw_gbps = res.algbw_gbps * busbw_factor(opt_.collective, comm_.size());
  res.line_rate_gbps = line_rate_;
  res.link_util_pct = utilization_pct(res.busbw_gbps, line_rate_);
  res.counter = all.counter;
  if (all.counter) res.counter_util_pct = utilization_pct(all.counter->gbytes_per_s, line_rate_);
  return res;
}

}  // namespace ccb
