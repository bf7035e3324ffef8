#include "runner/hop_report.h"

#include <algorithm>
#include <cstdio>

#include "metrics/latency_stats.h"

namespace ccb {

std::optional<SlowestHop> slowest_hop(const std::vector<double>& hop_in_us) {
  const int n = static_cast<int>(hop_in_us.size());
  if (n < 3) return std::nullopt;  // 2 ranks: the two hops are the same pair, both ways
  SlowestHop h;
  h.to = static_cast<int>(std::max_element(hop_in_us.begin(), hop_in_us.end()) - hop_in_us.begin());
  h.from = (h.to + n - 1) % n;
  h.us = hop_in_us[static_cast<size_t>(h.to)];
  h.median_us = summarize_latency(hop_in_us).p50;
  h.ratio = h.median_us > 0 ? h.us / h.median_us : 0;
  return h;
}

std::string slowest_hop_line(const SlowestHop& h, const std::vector<std::string>& labels, double straggler_factor) {
  auto name = [&](int r) {
    return static_cast<size_t>(r) < labels.size() ? labels[static_cast<size_t>(r)] : "rank " + std::to_string(r);
  };
  char figures[200];
  std::snprintf(figures, sizeof figures, ", %.2fx the median hop (%.1f us against %.1f us per message): %s %.2gx",
                h.ratio, h.us, h.median_us, h.ratio > straggler_factor ? "a straggler, above" : "no straggler above",
                straggler_factor);
  return "slowest hop: " + name(h.from) + " -> " + name(h.to) + figures;
}

}  // namespace ccb
