#include "runner/soak.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <nlohmann/json.hpp>
#include <regex>

#include "algo/data_pattern.h"
#include "core/error.h"
#include "core/units.h"
#include "metrics/cpu_usage.h"
#include "metrics/bandwidth.h"

namespace ccb {
namespace {

volatile sig_atomic_t g_stop_signal = 0;
void note_signal(int sig) { g_stop_signal = sig; }

// SIGINT and SIGTERM end the soak at the next agreement instead of the process.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = note_signal;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// CCB_TEST_FAULT=flip:rank=R,call=N,byte=B (tests only; see soak.h).
struct TestFault {
  int rank = -1;
  uint64_t call = 0;
  size_t byte = 0;

  static TestFault from_env() {
    const char* v = std::getenv("CCB_TEST_FAULT");
    if (!v || !*v) return {};
    std::cmatch m;
    if (!std::regex_match(v, m, std::regex(R"(flip:rank=(\d{1,6}),call=(\d{1,12}),byte=(\d{1,12}))")))
      throw_invalid(std::string("CCB_TEST_FAULT='") + v + "' is not flip:rank=R,call=N,byte=B: unset it (it is for tests)");
    return {std::stoi(m[1]), std::stoull(m[2]), std::stoull(m[3])};
  }
  void apply(CollectiveRunner& runner, uint64_t call_now) const {
    if (runner.rank() == rank && call_now == call && byte < runner.output_size()) runner.output_bytes()[byte] ^= 0x01;
  }
};

struct BatchReport {
  int signal = 0;
  double elapsed_s = 0;
  double wall_s = 0;  // the batch, checks included: what sizes the next one
  double sum_us = 0;
  double cpu_s = 0;  // this process's CPU time over the batch, checks included
  uint64_t wrong = 0;
  std::optional<WrongElement> first;
};

nlohmann::json encode(const BatchReport& b) {
  nlohmann::json j{{"signal", b.signal}, {"elapsed_s", b.elapsed_s}, {"wall_s", b.wall_s}, {"sum_us", b.sum_us}, {"cpu_s", b.cpu_s}, {"wrong", b.wrong}};
  if (b.first)
    j["first"] = {{"rank", b.first->rank},     {"bytes", b.first->bytes},       {"call", b.first->call},
                  {"offset", b.first->offset}, {"element", b.first->element},   {"expected", b.first->expected},
                  {"got", b.first->got},       {"elapsed_s", b.first->elapsed_s}};
  return j;
}

BatchReport decode(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    BatchReport b{j.at("signal").get<int>(), j.at("elapsed_s").get<double>(), j.at("wall_s").get<double>(),
                  j.at("sum_us").get<double>(), j.at("cpu_s").get<double>(), j.at("wrong").get<uint64_t>(), std::nullopt};
    if (j.contains("first")) {
      const auto& f = j.at("first");
      b.first = WrongElement{f.at("rank").get<int>(),        f.at("bytes").get<uint64_t>(),  f.at("call").get<uint64_t>(),
                             f.at("offset").get<long long>(), f.at("element").get<size_t>(), f.at("expected").get<double>(),
                             f.at("got").get<double>(),       f.at("elapsed_s").get<double>()};
    }
    return b;
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::kProtocol, std::string("a rank sent a malformed soak report: ") + e.what());
  }
}

double busbw_of(const CollectiveRunner& runner, int ranks, uint64_t bytes, double mean_us) {
  const RunOptions& o = runner.options();
  return algbw_gbps(bytes * static_cast<uint64_t>(messages_per_call(o)), mean_us * 1e-6) * busbw_factor(o.collective, ranks);
}

// This rank's batch: `calls` checked calls of the prepared size.
BatchReport run_batch(CollectiveRunner& runner, const TestFault& fault, uint64_t bytes, uint64_t calls,
                      uint64_t& call_count, Clock::time_point t0) {
  BatchReport mine;
  for (uint64_t i = 0; i < calls; ++i) {
    const double seconds = runner.soak_call();
    fault.apply(runner, ++call_count);
    MismatchCapture capture;
    const uint64_t wrong = runner.check_output();
    mine.sum_us += seconds * 1e6;
    mine.wrong += wrong;
    if (wrong > 0 && !mine.first && capture.first()) {
      const Mismatch& m = *capture.first();
      mine.first = WrongElement{runner.rank(), bytes, call_count, runner.output_offset(m.at), m.element,
                                m.expected, m.got, seconds_since(t0)};
    }
  }
  return mine;
}

}  // namespace

uint64_t SoakState::wrong() const {
  uint64_t w = 0;
  for (const SoakSize& s : sizes) w += s.wrong;
  return w;
}

std::string describe(const WrongElement& w) {
  char b[320];
  std::snprintf(b, sizeof b, "rank %d, call %llu (%s), %s into the soak: byte %lld of the output (element %zu): expected %.17g, got %.17g",
                w.rank, static_cast<unsigned long long>(w.call), format_bytes(w.bytes).c_str(),
                format_duration(w.elapsed_s).c_str(), w.offset, w.element, w.expected, w.got);
  return b;
}

SoakState run_soak(CollectiveRunner& runner, Bootstrap& boot, const std::vector<uint64_t>& sizes,
                   const SoakOptions& options, const std::function<void(const SoakState&)>& after_batch) {
  StopSignals signals;
  const TestFault fault = TestFault::from_env();
  SoakState st;
  for (uint64_t b : sizes) {
    SoakSize s;
    s.bytes = b;
    st.sizes.push_back(s);
  }
  std::vector<uint64_t> batch_calls(sizes.size(), 1);
  uint64_t call_count = 0;
  const auto t0 = Clock::now();
  for (size_t at = 0;; at = (at + 1) % sizes.size()) {
    SoakSize& s = st.sizes[at];
    uint64_t wrong_before = 0;
    if (sizes.size() > 1 || s.calls == 0) wrong_before = runner.prepare(s.bytes);
    s.algorithm = runner.active_algorithm();
    const auto batch_start = Clock::now();
    const double cpu_start = process_cpu_seconds();
    BatchReport mine = run_batch(runner, fault, s.bytes, batch_calls[at], call_count, t0);
    mine.wrong += wrong_before;
    mine.signal = g_stop_signal;
    mine.wall_s = seconds_since(batch_start);
    mine.cpu_s = process_cpu_seconds() - cpu_start;
    mine.elapsed_s = seconds_since(t0);
    double slowest = 0, wall_s = 0;
    int signal = 0;
    std::optional<WrongElement> first;
    const std::vector<std::string> all = boot.allgather(encode(mine).dump());
    s.rank_cpu_s.resize(all.size(), 0);
    for (size_t r = 0; r < all.size(); ++r) {
      const BatchReport b = decode(all[r]);
      slowest = std::max(slowest, b.sum_us);
      wall_s = std::max(wall_s, b.wall_s);
      s.wrong += b.wrong;
      s.rank_cpu_s[r] += b.cpu_s;
      signal = signal ? signal : b.signal;
      if (b.first && (!first || b.first->call < first->call)) first = b.first;
      if (r == 0) st.elapsed_s = b.elapsed_s;
    }
    const double mean_us = slowest / static_cast<double>(batch_calls[at]);
    s.wall_s += wall_s;
    s.calls += batch_calls[at];
    s.slowest_total_us += slowest;
    s.batch_mean_us.push_back(mean_us);
    s.busbw_last_gbps = busbw_of(runner, boot.size(), s.bytes, mean_us);
    s.busbw_worst_gbps = s.batch_mean_us.size() == 1 ? s.busbw_last_gbps : std::min(s.busbw_worst_gbps, s.busbw_last_gbps);
    if (!st.first_wrong && first) st.first_wrong = first;
    if (signal) st.stopped_by = signal == SIGINT ? "SIGINT" : "SIGTERM";
    else if (st.elapsed_s >= options.duration_s) st.stopped_by = "duration";
    const double per_call_s = std::max(wall_s / static_cast<double>(batch_calls[at]), 1e-9);  // checks included
    batch_calls[at] = static_cast<uint64_t>(std::clamp(options.batch_s / per_call_s, 1.0, 1e6));
    after_batch(st);
    if (!st.stopped_by.empty()) return st;
  }
}

SizeResult soak_result(const CollectiveRunner& runner, int ranks, const SoakSize& s) {
  SizeResult r;
  r.bytes = s.bytes;
  r.algorithm = s.algorithm;
  r.count = describe(runner.options().collective).count(s.bytes, runner.options().dtype, ranks);
  r.iters = static_cast<int>(std::min<uint64_t>(s.calls, static_cast<uint64_t>(INT32_MAX)));
  r.time_us = s.calls ? s.slowest_total_us / static_cast<double>(s.calls) : 0;
  r.algbw_gbps = r.time_us > 0 ? algbw_gbps(s.bytes * static_cast<uint64_t>(messages_per_call(runner.options())), r.time_us * 1e-6) : 0;
  r.busbw_gbps = r.time_us > 0 ? busbw_of(runner, ranks, s.bytes, r.time_us) : 0;
  r.latency_us = summarize_latency(s.batch_mean_us);
  r.line_rate_gbps = runner.line_rate_gbps();
  r.link_util_pct = utilization_pct(r.busbw_gbps, r.line_rate_gbps);
  r.wrong = s.wrong;
  for (double cpu_s : s.rank_cpu_s) r.rank_cpu_pct.push_back(s.wall_s > 0 ? 100 * cpu_s / s.wall_s : 0);
  if (!r.rank_cpu_pct.empty()) {
    r.cpu_pct_mean = std::accumulate(r.rank_cpu_pct.begin(), r.rank_cpu_pct.end(), 0.0) / static_cast<double>(r.rank_cpu_pct.size());
    r.cpu_pct_max = *std::max_element(r.rank_cpu_pct.begin(), r.rank_cpu_pct.end());
  }
  r.soak = SoakFigures{0, s.busbw_last_gbps, s.busbw_worst_gbps, "", ""};
  return r;
}

}  // namespace ccb
