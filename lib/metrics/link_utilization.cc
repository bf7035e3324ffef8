#include "metrics/link_utilization.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <set>

#include "core/error.h"
#include "core/units.h"

namespace ccb {

std::optional<double> utilization_pct(double gbytes_per_s, double line_rate_gbps) {
  if (!(line_rate_gbps > 0)) return std::nullopt;
  return gbytes_per_s * 8.0 / line_rate_gbps * 100.0;
}

std::optional<uint64_t> read_counter(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path);
  uint64_t v = 0;
  if (!(in >> v)) return std::nullopt;
  return v;
}

std::string counter_scope() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  struct stat st{};
  std::string ns = stat("/proc/self/ns/net", &st) == 0 ? std::to_string(st.st_ino) : "?";
  return std::string(host) + "/netns:" + ns;
}

std::optional<CounterRate> combine_counters(const std::vector<CounterReading>& ranks) {
  if (ranks.empty()) return std::nullopt;
  CounterRate r;
  std::set<std::string> seen;
  for (size_t rank = 0; rank < ranks.size(); ++rank) {
    const CounterReading& c = ranks[rank];
    if (c.key.empty()) return std::nullopt;
    r.window_s = std::max(r.window_s, c.window_s);
    if (!seen.insert(c.key).second) continue;
    r.bytes += c.delta_bytes;
    r.per_counter.emplace_back(static_cast<int>(rank), c.delta_bytes);
  }
  if (r.window_s <= 0) return std::nullopt;
  r.gbytes_per_s = static_cast<double>(r.bytes) / static_cast<double>(ranks.size()) / r.window_s / 1e9;
  return r;
}

}  // namespace ccb
