#include "fabric/topology.h"

#include <algorithm>

#include "core/error.h"

namespace ccb::fabric {
namespace {

bool shares(const Topology& t, int la, int lb, size_t spine) {
  return t.uplink[static_cast<size_t>(la)][spine].rate_gbps > 0 && t.uplink[static_cast<size_t>(lb)][spine].rate_gbps > 0;
}

// splitmix64's finalizer: pairs spread over the spines as a switch's flow hash spreads
// them, where (a + b) mod k would send a whole round-robin round through one spine.
uint64_t route_hash(int a, int b) {
  uint64_t x = static_cast<uint64_t>(a) << 32 | static_cast<uint32_t>(b);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

const Cable& uplink_of(const Topology& t, int leaf, int spine) {
  return t.uplink[static_cast<size_t>(leaf)][static_cast<size_t>(spine)];
}

}  // namespace

ElementKind Topology::kind(size_t e) const {
  if (e < hosts.size()) return ElementKind::kHostCable;
  if (e < leaf_element(0)) return ElementKind::kUplink;
  if (e < spine_element(0)) return ElementKind::kLeaf;
  return ElementKind::kSpine;
}

std::string Topology::element_name(size_t e) const {
  switch (kind(e)) {
    case ElementKind::kHostCable: {
      const std::string& h = hosts[e];
      return "host " + h + "'s cable (" + h + " - " + leaves[static_cast<size_t>(host_leaf[e])] + ")";
    }
    case ElementKind::kUplink: {
      const size_t i = e - hosts.size();
      return leaves[i / spines.size()] + " -> " + spines[i % spines.size()] + " uplink";
    }
    case ElementKind::kLeaf: return "leaf switch " + leaves[e - leaf_element(0)];
    case ElementKind::kSpine: return "spine switch " + spines[e - spine_element(0)];
  }
  return "?";
}

size_t Topology::find_element(const std::string& name) const {
  auto index_in = [&name](const std::vector<std::string>& names) {
    auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  };
  if (int h = index_in(hosts); h >= 0) return host_element(h);
  if (int l = index_in(leaves); l >= 0) return leaf_element(l);
  if (int s = index_in(spines); s >= 0) return spine_element(s);
  if (const size_t arrow = name.find("->"); arrow != std::string::npos) {
    const auto leaf = std::find(leaves.begin(), leaves.end(), name.substr(0, arrow));
    const auto spine = std::find(spines.begin(), spines.end(), name.substr(arrow + 2));
    if (leaf != leaves.end() && spine != spines.end()) {
      const size_t e = uplink_element(static_cast<int>(leaf - leaves.begin()), static_cast<int>(spine - spines.begin()));
      if (exists(e)) return e;
      throw_invalid("'" + name + "': that leaf has no uplink to that spine in " + source);
    }
  }
  throw_invalid("'" + name + "' is no element of " + source + ": name a host, a leaf, a spine, or an uplink as LEAF->SPINE");
}

bool Topology::exists(size_t e) const {
  if (kind(e) != ElementKind::kUplink) return e < element_count();
  const size_t i = e - hosts.size();
  return uplink[i / spines.size()][i % spines.size()].rate_gbps > 0;
}

int Topology::spine_of(int a, int b) const {
  const int la = host_leaf[static_cast<size_t>(a)], lb = host_leaf[static_cast<size_t>(b)];
  if (la == lb) return -1;
  size_t common = 0;  // counted, then the pick found, so a path costs no allocation
  for (size_t s = 0; s < spines.size(); ++s) common += shares(*this, la, lb, s);
  if (common == 0) throw_invalid("leaves " + leaves[static_cast<size_t>(la)] + " and " + leaves[static_cast<size_t>(lb)] + " share no spine");
  size_t pick = route_hash(std::min(a, b), std::max(a, b)) % common;
  for (size_t s = 0;; ++s)
    if (shares(*this, la, lb, s) && pick-- == 0) return static_cast<int>(s);
}

void Topology::path(int a, int b, std::vector<size_t>& out) const {
  out.clear();
  const int la = host_leaf[static_cast<size_t>(a)], lb = host_leaf[static_cast<size_t>(b)];
  out.push_back(host_element(a));
  out.push_back(leaf_element(la));
  if (const int s = spine_of(a, b); s >= 0) {
    out.push_back(uplink_element(la, s));
    out.push_back(spine_element(s));
    out.push_back(uplink_element(lb, s));
    out.push_back(leaf_element(lb));
  }
  out.push_back(host_element(b));
}

double Topology::pair_rate_gbps(int a, int b) const {
  double rate = std::min(host_cable[static_cast<size_t>(a)].rate_gbps, host_cable[static_cast<size_t>(b)].rate_gbps);
  if (const int s = spine_of(a, b); s >= 0)
    rate = std::min({rate, uplink_of(*this, host_leaf[static_cast<size_t>(a)], s).rate_gbps,
                     uplink_of(*this, host_leaf[static_cast<size_t>(b)], s).rate_gbps});
  return rate;
}

double Topology::pair_delay_us(int a, int b) const {
  double delay = host_cable[static_cast<size_t>(a)].delay_us + host_cable[static_cast<size_t>(b)].delay_us;
  if (const int s = spine_of(a, b); s >= 0)
    delay += uplink_of(*this, host_leaf[static_cast<size_t>(a)], s).delay_us + uplink_of(*this, host_leaf[static_cast<size_t>(b)], s).delay_us;
  return delay;
}

Topology regular_leaf_spine(int hosts, int leaves, int spines, double host_gbps, double uplink_gbps) {
  if (hosts < 2 || hosts > kMaxHosts) throw_invalid("--hosts must be 2 to " + std::to_string(kMaxHosts) + ", not " + std::to_string(hosts));
  if (leaves < 1 || leaves > hosts || leaves > kMaxSwitches)
    throw_invalid("--leaves must be 1 to the number of hosts (and at most " + std::to_string(kMaxSwitches) + "), not " + std::to_string(leaves));
  if (spines < (leaves > 1 ? 1 : 0) || spines > kMaxSwitches)
    throw_invalid("--spines must be 1 to " + std::to_string(kMaxSwitches) + " when there are several leaves, not " + std::to_string(spines));
  if (!(host_gbps > 0) || !(uplink_gbps > 0)) throw_invalid("a cable's rate must be above 0");
  Topology t;
  t.source = "a regular fabric of " + std::to_string(hosts) + " hosts, " + std::to_string(leaves) + " leaves and " +
             std::to_string(spines) + " spines";
  for (int l = 0; l < leaves; ++l) t.leaves.push_back("leaf" + std::to_string(l + 1));
  for (int s = 0; s < spines; ++s) t.spines.push_back("spine" + std::to_string(s + 1));
  for (int h = 0; h < hosts; ++h) {
    t.hosts.push_back(std::string("h").append(std::to_string(h + 1)));  // not "h" + ...: GCC 12's false -Wrestrict
    t.host_leaf.push_back(static_cast<int>(static_cast<int64_t>(h) * leaves / hosts));
    t.host_cable.push_back({host_gbps, 0});
  }
  t.uplink.assign(static_cast<size_t>(leaves), std::vector<Cable>(static_cast<size_t>(spines), Cable{uplink_gbps, 0}));
  return t;
}

}  // namespace ccb::fabric
