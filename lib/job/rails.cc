#include "job/rails.h"

#include <net/if.h>

#include <algorithm>

#include "core/error.h"

namespace ccb {
namespace {

// An RDMA device name is at most IB_DEVICE_NAME_MAX (64) - 1 bytes.
constexpr size_t kMaxIbDeviceName = 63;

std::string* rail_field(TransportChoice& t) {
  if (t.name == "tcp" || t.name == "ipoib") return &t.tcp.iface;
  if (t.name == "verbs") return &t.verbs.device;
  return nullptr;
}

}  // namespace

std::vector<std::string> rail_names(const std::string& list, std::string_view flag, size_t max_name) {
  std::vector<std::string> names;
  if (list.empty()) return names;
  const std::string f(flag);
  size_t at = 0;
  for (;;) {
    const size_t comma = list.find(',', at);
    std::string name = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (name.empty())
      throw_invalid(f + " " + list + ": an empty name; give the rails as a list without gaps, e.g. eth1,eth2");
    if (name.size() > max_name)
      throw_invalid(f + " " + name.substr(0, 24) + "...: longer than a device name can be (" +
                    std::to_string(max_name) + " characters)");
    if (std::find(names.begin(), names.end(), name) != names.end())
      throw_invalid(f + " " + list + ": " + name + " is named twice; name each rail once (local ranks share "
                    "the rails in turn when there are fewer rails than ranks)");
    names.push_back(std::move(name));
    if (names.size() > kMaxRails)
      throw_invalid(f + ": more than " + std::to_string(kMaxRails) + " rails named; a host has at most that many");
    if (comma == std::string::npos) return names;
    at = comma + 1;
  }
}

std::vector<std::string> rails_of(const TransportChoice& t) {
  if (t.name == "verbs") return rail_names(t.verbs.device, "--ib-dev", kMaxIbDeviceName);
  if (t.name == "tcp" || t.name == "ipoib") return rail_names(t.tcp.iface, "--iface", IFNAMSIZ - 1);
  return {};
}

TransportChoice on_rail(TransportChoice t, int local_rank) {
  const std::vector<std::string> rails = rails_of(t);
  if (rails.size() > 1 && local_rank >= 0) *rail_field(t) = rails[static_cast<size_t>(local_rank) % rails.size()];
  return t;
}

std::vector<TransportChoice> each_rail(const TransportChoice& t) {
  const std::vector<std::string> rails = rails_of(t);
  if (rails.size() <= 1) return {t};
  std::vector<TransportChoice> out;
  for (int r = 0; r < static_cast<int>(rails.size()); ++r) out.push_back(on_rail(t, r));
  return out;
}

}  // namespace ccb
