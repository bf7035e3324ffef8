#include "runner/collective_runner.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "algo/algorithm_choice.h"
#include "core/error.h"
#include "metrics/bandwidth.h"
#include "metrics/cpu_usage.h"
#include "runner/rank_report.h"

namespace ccb {

std::string_view reduce_op_label(const RunOptions& o) { return describe(o.collective).reduces ? op_name(o.op) : "none"; }

int messages_per_call(const RunOptions& o) { return describe(o.collective).windowed ? o.window : 1; }

CollectiveRunner::CollectiveRunner(Communicator& comm, Bootstrap& bootstrap, RunOptions options)
    : comm_(comm), bootstrap_(bootstrap), opt_(options), link_(comm.transport().link()) {
  validate_algorithm(opt_.collective, opt_.algorithm);
  line_rate_ = opt_.line_rate_gbps > 0 ? opt_.line_rate_gbps : link_.line_rate_gbps;
}

CollectiveRunner::~CollectiveRunner() = default;

size_t CollectiveRunner::elements_per_rank(uint64_t bytes) const {
  return describe(opt_.collective).count(bytes, opt_.dtype, comm_.size());
}

// all-to-allv's receive buffer holds what its column of the splits sends it, which may
// exceed the buffer every rank sends.
bool CollectiveRunner::ensure_buffers(uint64_t bytes) {
  const uint64_t recv_bytes = std::max<uint64_t>(bytes, splits_.largest_recv_total() * dtype_size(opt_.dtype));
  if (send_buf_.size() >= bytes && recv_buf_.size() >= recv_bytes && send_buf_) return false;
  send_buf_ = RegisteredBuffer();  // the old pair goes first: two sweeps' buffers never coexist
  recv_buf_ = RegisteredBuffer();
  send_buf_ = RegisteredBuffer(comm_.memory(), comm_.transport(), std::max<uint64_t>(bytes, 4096));
  recv_buf_ = RegisteredBuffer(comm_.memory(), comm_.transport(), std::max<uint64_t>(recv_bytes, 4096));
  return true;
}

void CollectiveRunner::size_for(uint64_t bytes) {
  validate_size(opt_.collective, opt_.dtype, comm_.size(), bytes);
  count_ = elements_per_rank(bytes);
  if (opt_.splits) splits_ = make_splits(*opt_.splits, comm_.size(), opt_.dtype, count_);
}

// The call's buffers: the registered send and receive buffers, aliased as the
// collective's in-place call has them when asked.
CollectiveArgs CollectiveRunner::args(size_t count) const {
  CollectiveArgs a{{send_buf_.get(), 0}, {recv_buf_.get(), 0}, count, opt_.dtype, opt_.op, opt_.root,
                   opt_.peer_map.empty() ? nullptr : &opt_.peer_map, opt_.splits ? &splits_ : nullptr,
                   messages_per_call(opt_)};
  if (opt_.in_place) describe(opt_.collective).place_in_place(a, comm_.rank());
  return a;
}

void CollectiveRunner::run_once(size_t count) {
  describe(opt_.collective).run(comm_, opt_.chunks, active_, args(count));
}

void CollectiveRunner::fill_inputs(size_t count, bool zero) {
  describe(opt_.collective).fill(args(count), PatternSpec{opt_.dtype, opt_.op, comm_.size()}, comm_.rank(), zero);
}

uint64_t CollectiveRunner::check(size_t count) {
  return describe(opt_.collective).check(args(count), PatternSpec{opt_.dtype, opt_.op, comm_.size()}, comm_.rank());
}

// Every connection the algorithm needs, made before anything is timed (with -w 0 the
// first timed call would otherwise pay the handshakes).
void CollectiveRunner::connect_peers() {
  for (int peer : call_peers(describe(opt_.collective), active_, args(count_), comm_.rank(), comm_.size())) comm_.peer(peer);
}

// The algorithm for calls of `bytes`: the one asked for, or auto's choice.
Algorithm CollectiveRunner::resolve(uint64_t bytes) {
  if (opt_.algorithm != Algorithm::kAuto) return opt_.algorithm;
  const CollectiveDescriptor& d = describe(opt_.collective);
  if (!opt_.tune || tune_candidates().size() == 1 || comm_.size() == 1)
    return shipped_algorithm(d, comm_.size(), bytes, comm_.hierarchy() != nullptr);
  auto it = tuned_.find(bytes);
  if (it == tuned_.end()) it = tuned_.emplace(bytes, tune(bytes)).first;
  return it->second;
}

// Each algorithm timed on zeros for a few calls; the one whose slowest rank was
// fastest. Every rank sees the same times, so every rank chooses alike.
// The collective's flat algorithms, and hier where the job has host levels for it.
std::vector<Algorithm> CollectiveRunner::tune_candidates() const {
  const CollectiveDescriptor& d = describe(opt_.collective);
  std::vector<Algorithm> out = d.algorithms;
  if (d.hierarchical && comm_.hierarchy()) out.push_back(Algorithm::kHier);
  return out;
}

Algorithm CollectiveRunner::tune(uint64_t bytes) {
  const std::vector<Algorithm> candidates = tune_candidates();
  const size_t count = elements_per_rank(bytes);
  fill_inputs(count, true);
  const int calls = std::clamp(default_iters(bytes) / 10, 3, 20);
  std::string mine;
  for (Algorithm a : candidates) {
    active_ = a;
    connect_peers();
    run_once(count);  // warm: first-touch and queue set-up are not the algorithm's
    auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) run_once(count);
    mine += std::to_string(seconds_since(t0)) + ' ';
  }
  std::vector<double> slowest(candidates.size(), 0.0);
  for (const std::string& theirs : bootstrap_.allgather(mine)) {
    std::istringstream in(theirs);
    for (double& t : slowest) {
      double v = 0;
      if (in >> v) t = std::max(t, v);
    }
  }
  return candidates[static_cast<size_t>(std::min_element(slowest.begin(), slowest.end()) - slowest.begin())];
}

// Every rank hands its sends' stamps to every other (its right neighbour needs them);
// -1 when this rank received nothing through a ring.
double CollectiveRunner::hop_in_median_us(const HopTimeline& timeline) {
  const int n = comm_.size(), left = (comm_.rank() + n - 1) % n;
  const std::vector<std::string> all = bootstrap_.allgather(nlohmann::json(timeline.sends()).dump());
  std::vector<double> left_sends;
  try {
    nlohmann::json::parse(all[static_cast<size_t>(left)]).get_to(left_sends);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::kProtocol, "rank " + std::to_string(left) + " sent malformed hop stamps: " + e.what());
  }
  const std::vector<double> transfers = hop_transfer_us(left_sends, timeline.arrivals(), *left_offset_us_);
  return transfers.empty() ? -1 : summarize_latency(transfers).p50;
}

int CollectiveRunner::default_iters(uint64_t bytes) const {
  if (opt_.iters > 0) return opt_.iters;
  const uint64_t per_call = std::max<uint64_t>(bytes, 1) * static_cast<uint64_t>(messages_per_call(opt_));
  return static_cast<int>(std::clamp<uint64_t>((1ull << 30) / per_call, 5, 1000));
}

uint64_t CollectiveRunner::prepare(uint64_t bytes) {
  size_for(bytes);
  ensure_buffers(bytes);
  active_ = resolve(bytes);
  connect_peers();
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
  size_for(bytes);
  if (ensure_buffers(bytes)) fill_inputs(count_, true);  // fresh memory may hold NaNs or denormals
  active_ = resolve(bytes);
  connect_peers();
}

double CollectiveRunner::time_one() {
  auto t0 = Clock::now();
  run_once(count_);
  return seconds_since(t0);
}

// One clock read a call: each call's end is the next one's start (a read is a large part
// of an 8 B call on shm).
void CollectiveRunner::time_calls(int calls, std::vector<double>& iter_us) {
  iter_us.reserve(iter_us.size() + static_cast<size_t>(calls));
  auto last = Clock::now();
  for (int i = 0; i < calls; ++i) {
    run_once(count_);
    const auto now = Clock::now();
    iter_us.push_back(std::chrono::duration<double, std::micro>(now - last).count());
    last = now;
  }
}

double CollectiveRunner::soak_call() {
  if (opt_.in_place) fill_inputs(count_, false);
  else std::memset(recv_buf_.data(), 0xff, recv_buf_.size());  // what was there must not pass as delivered
  return time_one();
}

long long CollectiveRunner::output_offset(const char* at) const {
  const char* base = recv_buf_.data();
  return at >= base && at < base + recv_buf_.size() ? static_cast<long long>(at - base) : -1;
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
  res.algorithm = active_;
  for (int i = 0; i < warmup; ++i) run_once(count_);

  HopTimeline timeline;
  if (opt_.hops && !left_offset_us_) left_offset_us_ = left_clock_offset_us(comm_, 20);
  bootstrap_.barrier();
  auto sent0 = nic_bytes_sent(link_);
  CpuWindow cpu;
  HostHierarchy* levels = active_ == Algorithm::kHier ? comm_.hierarchy() : nullptr;
  if (levels) levels->legs() = {};
  {
    HopRecording recording(comm_, opt_.hops ? &timeline : nullptr);
    time_calls(res.iters, mine.iter_us);
  }
  if (levels) {
    res.legs = levels->legs().per_call();
    res.legs->intra_transport = std::string(levels->intra().transport().name());
  }
  bootstrap_.barrier();  // the window closes when every rank is done
  mine.window_s = cpu.wall_seconds();
  mine.cpu_pct = cpu.percent();
  auto sent1 = nic_bytes_sent(link_);
  if (sent0 && sent1) mine.counter = {nic_counter_key(link_), *sent1 - *sent0, mine.window_s};
  mine.wrong += check_after_timing();
  if (opt_.hops) mine.hop_in_us = hop_in_median_us(timeline);

  CombinedReport all = exchange_reports(bootstrap_, mine);
  res.time_us = all.time_us;
  res.latency_us = all.latency_us;
  res.iter_max_us = all.iter_max_us;
  res.rank_mean_us = all.rank_mean_us;
  res.rank_p50_us = all.rank_p50_us;
  if (opt_.hops && std::all_of(all.hop_in_us.begin(), all.hop_in_us.end(), [](double v) { return v >= 0; }))
    res.hop_in_us = all.hop_in_us;
  res.rank_cpu_pct = all.rank_cpu_pct;
  res.cpu_pct_mean = all.cpu_pct_mean;
  res.cpu_pct_max = all.cpu_pct_max;
  res.wrong = all.wrong;
  res.algbw_gbps = algbw_gbps(bytes * static_cast<uint64_t>(messages_per_call(opt_)), res.time_us * 1e-6);
  res.busbw_gbps = res.algbw_gbps * busbw_factor(opt_.collective, comm_.size());
  res.line_rate_gbps = line_rate_;
  res.link_util_pct = utilization_pct(res.busbw_gbps, line_rate_);
  res.counter = all.counter;
  if (all.counter) res.counter_util_pct = utilization_pct(all.counter->gbytes_per_s, line_rate_);
  return res;
}

}  // namespace ccb
