// How a report names a rank so an operator can find the box and the port:
// "rank 2 (host node-c, nic eth0)". Every rank of the job calls it at once.
#pragma once
#include <string>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "transport/transport.h"

namespace ccb {

std::vector<std::string> host_labels(Bootstrap& boot, const Transport& t);

// Where each rank runs, "node-c, nic eth0": equal strings share a host and a NIC.
std::vector<std::string> host_places(Bootstrap& boot, const Transport& t);
// The places as labels: "rank 2 (host node-c, nic eth0)".
std::vector<std::string> labels_of(const std::vector<std::string>& places);

}  // namespace ccb
