// A leaf-spine fabric as the scan sees it: hosts on leaf switches, leaves joined to spine
// switches by uplinks, each cable with a rate and a delay, and a fixed route for every
// pair of hosts. It is the map that Boolean tomography (localize.h) reads: a pair's path
// is the set of elements its traffic crosses, and a broken element is one that the slow
// pairs share.
//
// Elements, each a thing a person can go and replace:
//  - a host's cable (its NIC, optic and the leaf's port: no pair test tells them apart);
//  - an uplink, the cable between a leaf and a spine;
//  - a leaf switch, and a spine switch, as a whole.
//
// Routing is fixed per pair, so every path is known: hosts a < b on leaves that share
// the spines s_0 < s_1 < ... < s_(k-1) cross spine s_(h mod k), h being splitmix64's
// finalizer of (a << 32 | b) (topology.cc; the emulated fabric routes by the same
// rule). ECMP, where the spine depends on a flow hash the scan cannot see, is not
// modelled yet.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ccb::fabric {

enum class ElementKind { kHostCable, kUplink, kLeaf, kSpine };

struct Cable {
  double rate_gbps = 0;  // bits: 0 means no cable
  double delay_us = 0;
};

struct Topology {
  std::string source;  // the file it came from, or how it was generated
  std::vector<std::string> hosts, leaves, spines;
  std::vector<int> host_leaf;                 // [host]: its leaf
  std::vector<Cable> host_cable;              // [host]
  std::vector<std::vector<Cable>> uplink;     // [leaf][spine]; rate 0: not connected

  int host_count() const { return static_cast<int>(hosts.size()); }
  size_t element_count() const { return hosts.size() + leaves.size() * spines.size() + leaves.size() + spines.size(); }
  size_t host_element(int host) const { return static_cast<size_t>(host); }
  size_t uplink_element(int leaf, int spine) const {
    return hosts.size() + static_cast<size_t>(leaf) * spines.size() + static_cast<size_t>(spine);
  }
  size_t leaf_element(int leaf) const { return hosts.size() + leaves.size() * spines.size() + static_cast<size_t>(leaf); }
  size_t spine_element(int spine) const { return leaf_element(static_cast<int>(leaves.size())) + static_cast<size_t>(spine); }
  ElementKind kind(size_t element) const;
  // In its own words: "host h3's cable (h3 - leaf1)", "leaf2 -> spine1 uplink", "spine1".
  std::string element_name(size_t element) const;
  // The element a person means by `name`: a host, "LEAF->SPINE" (an uplink), a leaf or a
  // spine; throws kInvalidArgument listing the forms.
  size_t find_element(const std::string& name) const;
  bool exists(size_t element) const;  // false for an uplink that is not cabled

  // The spine that hosts a and b (on different leaves) cross; -1 on one leaf.
  int spine_of(int a, int b) const;
  // Every element the pair's traffic crosses, in order from a to b.
  void path(int a, int b, std::vector<size_t>& out) const;
  // What a pair gets alone on an idle fabric: its slowest cable's rate, and the sum of
  // the cables' delays one way.
  double pair_rate_gbps(int a, int b) const;
  double pair_delay_us(int a, int b) const;
};

// A regular fabric: `hosts` spread evenly over `leaves` (host i on leaf i * leaves /
// hosts), every leaf cabled to every spine. Throws kInvalidArgument on counts that
// cannot make one (0, more leaves than hosts, more than kMaxHosts).
Topology regular_leaf_spine(int hosts, int leaves, int spines, double host_gbps, double uplink_gbps);

constexpr int kMaxHosts = 65536;
constexpr int kMaxSwitches = 4096;

}  // namespace ccb::fabric
