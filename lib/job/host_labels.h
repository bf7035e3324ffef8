// How a report names a rank so an operator can find the box and the port:
// "rank 2 (host node-c, nic eth0)", from the layout every rank learnt at bootstrap.
#pragma once
#include <string>
#include <vector>

#include "bootstrap/host_layout.h"

namespace ccb {

// Where each rank runs, "node-c, nic eth0": equal strings share a host and a NIC.
std::vector<std::string> host_places(const HostLayout& layout);
// The places as labels: "rank 2 (host node-c, nic eth0)".
std::vector<std::string> labels_of(const std::vector<std::string>& places);
std::vector<std::string> host_labels(const HostLayout& layout);

}  // namespace ccb
