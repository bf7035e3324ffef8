// The topology file (`--topology FILE`), YAML:
//
//   name: lab-a                       # optional
//   routing: fixed                    # the only routing modelled (topology.h)
//   spines:
//     - name: spine1
//   leaves:
//     - name: leaf1
//       uplink_rate: 2G               # a cable to every spine at this rate, or
//       uplinks:                      # a list: one cable per spine named
//         - {to: spine1, rate: 2G, delay_us: 50}
//   hosts:
//     - {name: h1, leaf: leaf1, rate: 2G, delay_us: 0}
//
// or, for a fleet, in place of the three lists:
//
//   regular: {hosts: 1024, leaves: 32, spines: 4, host_rate: 100G, uplink_rate: 800G}
//
// Rates are bits per second as --line-rate takes them; delays are one way. The schema is
// a tree, hosts on leaves and leaves on spines, so a leaf cabled to a leaf or a host to a
// spine is refused as the loop or the shortcut it would make. Every refusal is one line:
// FILE:LINE:COLUMN: FIELD: what is wrong and the fix.
#pragma once
#include <string>

#include "fabric/topology.h"

namespace ccb::fabric {

constexpr size_t kMaxTopologyBytes = 16 << 20;

Topology parse_topology(const std::string& yaml, const std::string& source);
Topology load_topology(const std::string& path);  // the file, read as --topology

}  // namespace ccb::fabric
