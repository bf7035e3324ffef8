// How much of the link a collective uses, two ways:
//  - from the measured bus bandwidth: busbw x 8 / line rate;
//  - from the NIC's own byte counter, read by every rank over one barrier-bounded
//    window, so the figure includes headers and retransmits the payload count misses.
// Per-rank rates from unsynchronised windows are never summed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/units.h"  // parse_line_rate

namespace ccb {

// Percent of the line rate that `gbytes_per_s` (1e9 B/s) fills; nullopt without a rate.
std::optional<double> utilization_pct(double gbytes_per_s, double line_rate_gbps);

// Reads a sysfs counter file; nullopt when it is missing or unreadable.
std::optional<uint64_t> read_counter(const std::string& path);
// Who sees the same counters: the host and network namespace. Two ranks in one scope
// reading one file (loopback) share one counter.
std::string counter_scope();

// One rank's reading over the shared window.
struct CounterReading {
  std::string key;          // scope + file; empty when the rank's NIC has no counter
  uint64_t delta_bytes = 0;
  double window_s = 0;
};

struct CounterRate {
  double gbytes_per_s = 0;  // bytes each rank sent per second, averaged over the ranks
  uint64_t bytes = 0;       // bytes counted on the distinct counters
  double window_s = 0;      // the longest rank's window
  // Each distinct counter once, as (the lowest rank that read it, its bytes): what each
  // NIC sent, so rails can be told apart.
  std::vector<std::pair<int, uint64_t>> per_counter;
};

// Counters read by several ranks count once; the total is shared out over every rank.
// nullopt when any rank had no counter.
std::optional<CounterRate> combine_counters(const std::vector<CounterReading>& ranks);

}  // namespace ccb
