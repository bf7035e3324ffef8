// What each rank measured over one size's timed window, and how rank 0 combines the
// ranks: per iteration the slowest rank, counters counted once per NIC.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "metrics/latency_stats.h"
#include "metrics/link_utilization.h"
#include "transport/transport.h"

namespace ccb {

struct RankReport {
  std::vector<double> iter_us;  // each timed iteration
  double window_s = 0;          // barrier to barrier around the timed loop
  double cpu_pct = 0;
  uint64_t wrong = 0;
  CounterReading counter;
  double hop_in_us = -1;        // --hops: median transfer time into this rank; -1: none
};

struct CombinedReport {
  std::vector<double> iter_max_us;  // per iteration, the slowest rank
  double time_us = 0;               // the slowest rank's mean (nccl-tests' time)
  LatencyStats latency_us;
  std::vector<double> rank_mean_us, rank_cpu_pct;
  std::vector<double> rank_p50_us;  // each rank's median iteration
  std::vector<double> hop_in_us;    // each rank's RankReport::hop_in_us
  double cpu_pct_mean = 0, cpu_pct_max = 0;
  uint64_t wrong = 0;
  std::optional<CounterRate> counter;
};

// Bytes the link's NIC counter says were sent so far; nullopt without a counter.
std::optional<uint64_t> nic_bytes_sent(const LinkInfo& link);
// The counter's name as combine_counters() keys it: shared by ranks that read the same one.
std::string nic_counter_key(const LinkInfo& link);

std::string encode_report(const RankReport& r);
RankReport decode_report(const std::string& bytes);  // throws kProtocol when malformed
CombinedReport combine_reports(const std::vector<RankReport>& ranks);
// Every rank sends its report and gets the combination (allgather: ranks agree).
CombinedReport exchange_reports(Bootstrap& b, const RankReport& mine);

}  // namespace ccb
