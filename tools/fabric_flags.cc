#include "fabric_flags.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/units.h"
#include "fabric/topology_file.h"

namespace ccb::cli {

void add_fabric_flags(CLI::App& app, FabricFlags& f) {
  app.add_option("--topology", f.topology, "The fabric's topology file (YAML: hosts, leaves, spines, each cable's rate and delay)")->group("Fabric");
  app.add_option("--hosts", f.hosts, "Without --topology: a regular leaf-spine fabric of this many hosts")->check(CLI::Range(2, fabric::kMaxHosts))->group("Fabric");
  app.add_option("--leaves", f.leaves, "... on this many leaves (default: a leaf per 32 hosts)")->check(CLI::Range(1, fabric::kMaxSwitches))->group("Fabric");
  app.add_option("--spines", f.spines, "... and this many spines (default 4)")->check(CLI::Range(1, fabric::kMaxSwitches))->group("Fabric");
  app.add_option("--host-rate", f.host_rate, "... each host's cable at this rate in bit/s")->capture_default_str()->group("Fabric");
  app.add_option("--uplink-rate", f.uplink_rate, "... each uplink at this rate (default: the leaf's hosts' rates over the spines, 1:1)")->group("Fabric");
  app.add_option("--plan", f.plan, "Which pairs the scan measures: full, leaf-first[:K] (K crossings per uplink) or sample:K (K rounds)")->capture_default_str()->group("Fabric");
  app.add_option("--seed", f.seed, "Seed of the plan's random rounds (and of the model's noise)")->capture_default_str()->group("Fabric");
}

fabric::Topology fabric_of(const FabricFlags& f) {
  if (!f.topology.empty()) {
    if (f.hosts || f.leaves || f.spines) throw_invalid("give --topology or --hosts/--leaves/--spines, not both");
    return fabric::load_topology(f.topology);
  }
  if (f.hosts == 0) throw_invalid("name the fabric: --topology FILE, or --hosts N (with --leaves and --spines) for a regular one");
  const int leaves = f.leaves ? f.leaves : std::max(1, (f.hosts + 31) / 32);
  const int spines = f.spines ? f.spines : 4;
  if (leaves > f.hosts) throw_invalid("--leaves " + std::to_string(leaves) + " is more than the " + std::to_string(f.hosts) + " hosts");
  const double host_gbps = parse_line_rate(f.host_rate, "--host-rate");
  const double per_leaf = std::ceil(static_cast<double>(f.hosts) / leaves);
  const double uplink_gbps = f.uplink_rate.empty() ? host_gbps * per_leaf / spines : parse_line_rate(f.uplink_rate, "--uplink-rate");
  return fabric::regular_leaf_spine(f.hosts, leaves, spines, host_gbps, uplink_gbps);
}

fabric::PairTest pair_test_of(const std::string& bw_size, int window, int bw_iters, int lat_iters) {
  fabric::PairTest t;
  t.bw_bytes = parse_bytes(bw_size);
  t.window = window;
  t.bw_iters = bw_iters;
  t.lat_iters = lat_iters;
  return t;
}

}  // namespace ccb::cli
