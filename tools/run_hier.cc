#include "run_hier.h"

#include <cstdio>
#include <iostream>
#include <utility>

#include "algo/collectives.h"

#include "core/units.h"

namespace ccb::cli {

std::string nic_bytes_text(const CounterRate& c, const HostLayout& layout) {
  std::string out;
  for (const auto& [rank, bytes] : c.per_counter)
    out += (out.empty() ? "" : ", ") + layout.hosts.at(layout.host_of.at(rank)) + " " + layout.nic_of.at(rank) + " " +
           format_bytes(bytes);
  return out;
}

// What runs within the host before and after the hosts exchange; "" where nothing does.
static std::pair<std::string, std::string> host_legs(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::kReduceScatter: return {"pack and reduce-scatter", ""};
    case CollectiveKind::kAllGather: return {"", "all-gather and unpack"};
    case CollectiveKind::kBroadcast: return {"", "broadcast"};
    default: return {"reduce-scatter", "all-gather"};
  }
}

// --algo hier: where a call's time went, rank 0's view, and what each NIC sent.
void print_hier_legs(const SizeResult& r, CollectiveKind kind, const std::string& over, const HostLayout& layout) {
  if (!r.legs) return;
  const auto [before, after] = host_legs(kind);
  char figure[64];
  std::string line = "# hier " + format_bytes(r.bytes) + ":";
  if (!before.empty()) {
    std::snprintf(figure, sizeof figure, " within the host %.1f us", r.legs->intra_before_us);
    line += figure + (" (" + before + " over " + over + ") +");
  }
  std::snprintf(figure, sizeof figure, " across hosts %.1f us", r.legs->inter_us);
  line += figure + (" (" + std::string(algorithm_name(r.legs->inter_algorithm)) + ")");
  if (!after.empty()) {
    std::snprintf(figure, sizeof figure, " + within %.1f us", r.legs->intra_after_us);
    line += figure + (" (" + after + ")");
  }
  std::cout << line << "\n";
  if (r.counter) std::cout << "# hier " << format_bytes(r.bytes) << ": sent by each NIC " << nic_bytes_text(*r.counter, layout) << "\n";
  std::cout << std::flush;
}

}  // namespace ccb::cli
