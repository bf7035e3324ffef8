#include "fabric/topology_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "judge/yaml_fields.h"

namespace ccb::fabric {
namespace {

using judge::refuse;
using judge::text_of;

constexpr double kMaxDelayUs = 10e6;

// One file's reading: its name for every refusal, and every name seen so far.
class TopologyReader {
 public:
  explicit TopologyReader(std::string source) : source_(std::move(source)) {}

  Topology read(const YAML::Node& root) {
    if (!root.IsMap()) refuse(source_, root.Mark(), "topology", "expected a map with spines, leaves and hosts (or regular)");
    only_fields(root, "topology", {"name", "routing", "spines", "leaves", "hosts", "regular"});
    if (root["routing"] && text_of(source_, root["routing"], "routing") != "fixed")
      refuse(source_, root["routing"].Mark(), "routing", "only 'fixed' is modelled: ECMP hides each pair's spine from the scan");
    if (root["regular"]) return read_regular(root);
    t_.source = source_;
    read_spines(list(root, "spines", false));
    read_leaves(list(root, "leaves", true));
    read_hosts(list(root, "hosts", true));
    check_reachable(root);
    return std::move(t_);
  }

 private:
  void only_fields(const YAML::Node& map, const std::string& where, std::initializer_list<const char*> known) {
    for (const auto& kv : map) {
      const std::string key = kv.first.Scalar();
      if (std::none_of(known.begin(), known.end(), [&key](const char* k) { return key == k; })) {
        std::string list;
        for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        refuse(source_, kv.first.Mark(), where, "unknown field '" + key + "' (known: " + list + ")");
      }
    }
  }
  YAML::Node list(const YAML::Node& root, const char* field, bool required) {
    const YAML::Node n = root[field];
    if (!n) {
      if (required) refuse(source_, root.Mark(), field, std::string("a topology lists its ") + field + " (or gives 'regular:')");
      return YAML::Node(YAML::NodeType::Sequence);
    }
    if (!n.IsSequence()) refuse(source_, n.Mark(), field, "expected a list");
    return n;
  }
  std::string name_of(const YAML::Node& entry, const std::string& where) {
    if (!entry.IsMap()) refuse(source_, entry.Mark(), where, "expected a map with a name");
    if (!entry["name"]) refuse(source_, entry.Mark(), where + ".name", "every entry has a name");
    const std::string name = text_of(source_, entry["name"], where + ".name");
    if (name.empty() || name.size() > 64 || name.find_first_of(" \t,") != std::string::npos || name.find("->") != std::string::npos)
      refuse(source_, entry["name"].Mark(), where + ".name", "'" + name + "': 1 to 64 characters, no spaces, commas or '->'");
    if (auto seen = first_seen_.find(name); seen != first_seen_.end())
      refuse(source_, entry["name"].Mark(), where + ".name",
             "'" + name + "' is named twice (first at line " + std::to_string(seen->second + 1) + "): give each host and switch its own name");
    first_seen_[name] = entry["name"].Mark().line;
    return name;
  }
  double rate(const YAML::Node& n, const std::string& field) {
    const std::string text = text_of(source_, n, field);
    double gbps = 0;
    try {
      gbps = parse_line_rate(text, field);
    } catch (const Error& e) {
      refuse(source_, n.Mark(), field, e.what());
    }
    if (!(gbps > 0)) refuse(source_, n.Mark(), field, "a rate of '" + text + "' carries nothing: give bits per second above 0 (2G)");
    return gbps;
  }
  double delay(const YAML::Node& map, const std::string& field) {
    if (!map["delay_us"]) return 0;
    const std::string text = text_of(source_, map["delay_us"], field);
    char* end = nullptr;
    const double us = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(us) || us < 0 || us > kMaxDelayUs)
      refuse(source_, map["delay_us"].Mark(), field, "'" + text + "': microseconds, 0 to 10000000");
    return us;
  }
  int count(const YAML::Node& map, const char* field, int lo, int hi) {
    if (!map[field]) refuse(source_, map.Mark(), std::string("regular.") + field, "regular: gives hosts, leaves and spines");
    const std::string text = text_of(source_, map[field], std::string("regular.") + field);
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || v < lo || v > hi)
      refuse(source_, map[field].Mark(), std::string("regular.") + field,
             "'" + text + "': a whole number, " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int>(v);
  }
  int index_of(const std::vector<std::string>& names, const std::string& name) {
    auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  }

  Topology read_regular(const YAML::Node& root) {
    const YAML::Node r = root["regular"];
    for (const char* other : {"spines", "leaves", "hosts"})
      if (root[other]) refuse(source_, root[other].Mark(), other, "give either 'regular:' or the lists, not both");
    if (!r.IsMap()) refuse(source_, r.Mark(), "regular", "expected {hosts, leaves, spines, host_rate, uplink_rate}");
    only_fields(r, "regular", {"hosts", "leaves", "spines", "host_rate", "uplink_rate"});
    const int hosts = count(r, "hosts", 2, kMaxHosts), leaves = count(r, "leaves", 1, std::min(hosts, kMaxSwitches));
    const int spines = count(r, "spines", leaves > 1 ? 1 : 0, kMaxSwitches);
    for (const char* f : {"host_rate", "uplink_rate"})
      if (!r[f]) refuse(source_, r.Mark(), std::string("regular.") + f, "regular: gives host_rate and uplink_rate (100G)");
    Topology t = regular_leaf_spine(hosts, leaves, spines, rate(r["host_rate"], "regular.host_rate"), rate(r["uplink_rate"], "regular.uplink_rate"));
    t.source = source_;
    return t;
  }
  void read_spines(const YAML::Node& spines) {
    for (size_t i = 0; i < spines.size(); ++i) {
      const std::string where = "spines[" + std::to_string(i) + "]";
      only_fields(spines[i], where, {"name"});
      t_.spines.push_back(name_of(spines[i], where));
    }
    if (t_.spines.size() > kMaxSwitches) refuse(source_, spines.Mark(), "spines", "more than 4096 spines");
  }
  void read_leaves(const YAML::Node& leaves) {
    if (leaves.size() == 0 || leaves.size() > kMaxSwitches) refuse(source_, leaves.Mark(), "leaves", "1 to 4096 leaves");
    for (const YAML::Node& l : leaves)  // known before any uplink names one
      if (l.IsMap() && l["name"] && l["name"].IsScalar()) leaf_names_.insert(l["name"].Scalar());
    for (size_t i = 0; i < leaves.size(); ++i) {
      const std::string where = "leaves[" + std::to_string(i) + "]";
      only_fields(leaves[i], where, {"name", "uplink_rate", "delay_us", "uplinks"});
      t_.leaves.push_back(name_of(leaves[i], where));
      t_.uplink.emplace_back(t_.spines.size());
      read_uplinks(leaves[i], where);
    }
  }
  void read_uplinks(const YAML::Node& leaf, const std::string& where) {
    std::vector<Cable>& row = t_.uplink.back();
    if (leaf["uplink_rate"] && leaf["uplinks"])
      refuse(source_, leaf["uplinks"].Mark(), where + ".uplinks", "give uplink_rate (a cable to every spine) or uplinks, not both");
    if (leaf["uplink_rate"]) {
      const Cable c{rate(leaf["uplink_rate"], where + ".uplink_rate"), delay(leaf, where + ".delay_us")};
      std::fill(row.begin(), row.end(), c);
      return;
    }
    if (!leaf["uplinks"]) return;
    const YAML::Node ups = leaf["uplinks"];
    if (!ups.IsSequence()) refuse(source_, ups.Mark(), where + ".uplinks", "expected a list of {to, rate, delay_us}");
    for (size_t u = 0; u < ups.size(); ++u) {
      const std::string at = where + ".uplinks[" + std::to_string(u) + "]";
      if (!ups[u].IsMap() || !ups[u]["to"] || !ups[u]["rate"]) refuse(source_, ups[u].Mark(), at, "an uplink is {to: SPINE, rate: RATE}");
      only_fields(ups[u], at, {"to", "rate", "delay_us"});
      const std::string to = text_of(source_, ups[u]["to"], at + ".to");
      const int s = index_of(t_.spines, to);
      if (s < 0) {
        if (leaf_names_.count(to))
          refuse(source_, ups[u]["to"].Mark(), at + ".to",
                 "'" + to + "' is a leaf: leaves cable to spines only (a leaf-to-leaf cable makes a loop the schema forbids)");
        refuse(source_, ups[u]["to"].Mark(), at + ".to", "'" + to + "' is not a spine of this file: list it under spines");
      }
      if (row[static_cast<size_t>(s)].rate_gbps > 0)
        refuse(source_, ups[u]["to"].Mark(), at + ".to", "a second cable to " + to + ": one uplink per leaf and spine");
      row[static_cast<size_t>(s)] = {rate(ups[u]["rate"], at + ".rate"), delay(ups[u], at + ".delay_us")};
    }
  }
  void read_hosts(const YAML::Node& hosts) {
    if (hosts.size() < 2 || hosts.size() > kMaxHosts) refuse(source_, hosts.Mark(), "hosts", "2 to 65536 hosts");
    for (size_t i = 0; i < hosts.size(); ++i) {
      const std::string where = "hosts[" + std::to_string(i) + "]";
      only_fields(hosts[i], where, {"name", "leaf", "rate", "delay_us"});
      t_.hosts.push_back(name_of(hosts[i], where));
      if (!hosts[i]["leaf"] || !hosts[i]["rate"]) refuse(source_, hosts[i].Mark(), where, "a host is {name, leaf: LEAF, rate: RATE}");
      const std::string leaf = text_of(source_, hosts[i]["leaf"], where + ".leaf");
      const int l = index_of(t_.leaves, leaf);
      if (l < 0)
        refuse(source_, hosts[i]["leaf"].Mark(), where + ".leaf",
               index_of(t_.spines, leaf) >= 0 ? "'" + leaf + "' is a spine: hosts hang off leaves (a host on a spine bypasses the tree)"
                                              : "'" + leaf + "' is not a leaf of this file: list it under leaves");
      t_.host_leaf.push_back(l);
      t_.host_cable.push_back({rate(hosts[i]["rate"], where + ".rate"), delay(hosts[i], where + ".delay_us")});
    }
  }
  // Every pair of leaves that hold hosts shares a spine, or some pairs have no path.
  void check_reachable(const YAML::Node& root) {
    std::set<int> used(t_.host_leaf.begin(), t_.host_leaf.end());
    for (int a : used)
      for (int b : used) {
        if (b <= a) continue;
        bool shared = false;
        for (size_t s = 0; s < t_.spines.size() && !shared; ++s)
          shared = t_.uplink[static_cast<size_t>(a)][s].rate_gbps > 0 && t_.uplink[static_cast<size_t>(b)][s].rate_gbps > 0;
        if (!shared)
          refuse(source_, root["leaves"].Mark(), "leaves",
                 t_.leaves[static_cast<size_t>(a)] + " and " + t_.leaves[static_cast<size_t>(b)] +
                     " share no spine, so their hosts cannot reach each other: cable both to one spine");
      }
  }

  std::string source_;
  Topology t_;
  std::map<std::string, int> first_seen_;
  std::set<std::string> leaf_names_;
};

}  // namespace

Topology parse_topology(const std::string& yaml, const std::string& source) {
  try {
    return TopologyReader(source).read(YAML::Load(yaml));
  } catch (const YAML::Exception& e) {
    refuse(source, e.mark, "YAML", e.msg);
  }
}

Topology load_topology(const std::string& path) {
  return parse_topology(read_regular_file(path, kMaxTopologyBytes, "--topology"), path);
}

}  // namespace ccb::fabric
