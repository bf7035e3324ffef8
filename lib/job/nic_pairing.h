// The default rail of a rank: with no --ib-dev, each local rank of a host with several
// active RDMA devices takes the one nearest to the CPUs it may run on, as NCCL pairs
// each GPU with its nearest NIC. Nearness is the NUMA distance from the rank's node to
// the device's (sysfs: the device's numa_node, the node's distance row); ranks that
// find several devices equally near share them in turn by local rank, in PCI order.
// A rank whose CPUs span nodes (an unbound rank) finds every device equally near, so
// local ranks spread over all of them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "runner/transport_factory.h"

namespace ccb {

struct PlacedNic {
  std::string name;         // "mlx5_0"
  int numa_node = -1;       // -1: the platform does not say
  std::string pci_address;  // "0000:3b:00.0"; "" when not known
};

// Distance between two NUMA nodes, 10 to itself as the ACPI SLIT has it.
using NumaDistance = std::function<int(int from, int to)>;

// Pure: the index in `nics` (PCI order) of the device for `local_rank`, whose CPUs lie
// on `rank_node` (-1: on several nodes, or unknown). `nics` must not be empty.
size_t nearest_nic(const std::vector<PlacedNic>& nics, int local_rank, int rank_node, const NumaDistance& distance);

// Under `root` (a real host: "/"): the RDMA devices with an ACTIVE port, in PCI order.
std::vector<PlacedNic> active_rdma_devices(const std::string& root);
// The node's distance row (sys/devices/system/node/nodeN/distance); without one, 10 to
// itself and 20 to any other, and farther still to a device whose node is unknown.
int numa_distance(const std::string& root, int from, int to);
// The one node that holds every CPU of `cpus`; -1 when they span nodes or none says.
int home_numa_node(const std::string& root, const std::vector<int>& cpus);

// What local rank `local_rank` opens: its rail from the --iface/--ib-dev list when one
// is given; else for verbs on a host of several active devices, the nearest device;
// else `t` unchanged (TCP follows the host's routes).
TransportChoice rank_rail(const TransportChoice& t, int local_rank, const std::string& root = "/");

}  // namespace ccb
