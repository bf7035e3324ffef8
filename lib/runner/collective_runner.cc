#include "runner/collective_runner.h"

#include <algorithm>
#include <cstring>

#include "algo/all_gather.h"
#include "algo/reduce_scatter.h"
#include "algo/ring_allreduce.h"
#include "algo/tree_allreduce.h"
#include "core/error.h"
#include "runner/data_pattern.h"

namespace ccb {

std::string_view algorithm_name(Algorithm a) { return a == Algorithm::kRing ? "ring" : "tree"; }

Algorithm parse_algorithm(std::string_view s) {
  if (s == "ring") return Algorithm::kRing;
  if (s == "tree") return Algorithm::kTree;
  throw_invalid("unknown algorithm '" + std::string(s) + "': use ring or tree");
}

std::string_view collective_name(CollectiveKind c) {
  switch (c) {
    case CollectiveKind::kAllreduce: return "allreduce";
    case CollectiveKind::kReduceScatter: return "reduce_scatter";
    case CollectiveKind::kAllGather: return "all_gather";
  }
  return "?";
}

CollectiveKind parse_collective(std::string_view s) {
  for (auto c : {CollectiveKind::kAllreduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather})
    if (s == collective_name(c)) return c;
  throw_invalid("unknown collective '" + std::string(s) + "': use allreduce, reduce_scatter or all_gather");
}

double busbw_factor(CollectiveKind c, int n) {
  double f = static_cast<double>(n - 1) / n;
  return c == CollectiveKind::kAllreduce ? 2 * f : f;
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

CollectiveRunner::CollectiveRunner(Communicator& comm, Bootstrap& bootstrap, RunOptions options)
    : comm_(comm), bootstrap_(bootstrap), opt_(options) {
  validate_algorithm(opt_.collective, opt_.algorithm);
}

CollectiveRunner::~CollectiveRunner() {
  send_mr_.reset();
  recv_mr_.reset();
}

size_t CollectiveRunner::elements_per_rank(uint64_t bytes) const {
  size_t total = bytes / dtype_size(opt_.dtype);
  return opt_.collective == CollectiveKind::kAllreduce ? total : total / comm_.size();
}

void CollectiveRunner::ensure_buffers(uint64_t bytes) {
  if (send_buf_.size() >= bytes && send_mr_) return;
  send_mr_.reset();
  recv_mr_.reset();
  size_t alloc = std::max<uint64_t>(bytes, 4096);
  send_buf_ = AlignedBuffer(alloc);
  recv_buf_ = AlignedBuffer(alloc);
  send_mr_ = comm_.transport().register_memory(send_buf_.data(), alloc);
  recv_mr_ = comm_.transport().register_memory(recv_buf_.data(), alloc);
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

SizeResult CollectiveRunner::run(uint64_t bytes) {
  validate_size(opt_.collective, opt_.dtype, comm_.size(), bytes);
  SizeResult res;
  res.bytes = bytes;
  res.count = elements_per_rank(bytes);
  res.iters = opt_.iters > 0 ? opt_.iters : static_cast<int>(std::clamp<uint64_t>((1ull << 30) / std::max<uint64_t>(bytes, 1), 5, 1000));
  const int warmup = opt_.warmup >= 0 ? opt_.warmup : std::clamp(res.iters / 10, 2, 20);
  ensure_buffers(bytes);

  uint64_t wrong = 0;
  if (opt_.check) {
    fill_inputs(res.count, false);
    run_once(res.count);
    wrong = check(res.count);
  }
  // In place, repeated sums would overflow: time on zeros (same work, stable values).
  // Out of place the checked run left the inputs as they were.
  if (opt_.in_place || !opt_.check) fill_inputs(res.count, opt_.in_place);
  for (int i = 0; i < warmup; ++i) run_once(res.count);
  bootstrap_.barrier();
  auto t0 = Clock::now();
  for (int i = 0; i < res.iters; ++i) run_once(res.count);
  double mean_us = seconds_since(t0) * 1e6 / res.iters;
  if (opt_.check && !opt_.in_place) wrong += check(res.count);

  std::string mine(sizeof(double) + sizeof(uint64_t), '\0');
  std::memcpy(mine.data(), &mean_us, sizeof mean_us);
  std::memcpy(mine.data() + sizeof mean_us, &wrong, sizeof wrong);
  for (const std::string& s : bootstrap_.allgather(mine)) {
    double m;
    uint64_t w;
    std::memcpy(&m, s.data(), sizeof m);
    std::memcpy(&w, s.data() + sizeof m, sizeof w);
    res.rank_mean_us.push_back(m);
    res.time_us = std::max(res.time_us, m);
    res.wrong += w;
  }
  res.algbw_gbps = res.time_us > 0 ? static_cast<double>(bytes) / (res.time_us * 1e3) : 0;
  res.busbw_gbps = res.algbw_gbps * busbw_factor(opt_.collective, comm_.size());
  return res;
}

}  // namespace ccb
