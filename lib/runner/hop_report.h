// The straggler answer of --hops: which hop of the ring is slowest, against the median
// hop, from the per-rank transfer times (SizeResult::hop_in_us: hop r-1 -> r at r).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ccb {

struct SlowestHop {
  int from = 0, to = 0;
  double us = 0, median_us = 0;
  double ratio = 0;  // us / median_us
};

// None for fewer than 2 hops (nothing to compare) or no figures.
std::optional<SlowestHop> slowest_hop(const std::vector<double>& hop_in_us);
// "slowest hop: rank 2 (host c) -> rank 3 (host d), 1.80x the median hop (...): a
// straggler" when the ratio is above `straggler_factor`, else "...: none above 1.5x".
std::string slowest_hop_line(const SlowestHop& h, const std::vector<std::string>& labels, double straggler_factor);

}  // namespace ccb
