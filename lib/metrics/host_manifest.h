// The host state that explains a bad figure, read from sysfs and procfs and kept in
// every result record: the NIC's driver, firmware and PCIe link (current against its
// maximum), its NUMA node against the CPUs a rank runs on, its MTU, the IOMMU's
// handling of its DMA, RoCE's PFC, ECN and ToS (metrics/roce_qos.h), the CPU frequency
// governor and the rdma-core release. Every path starts at `root` ("/" on a real host), so tests run
// on fake trees. A file that cannot be read leaves its field empty (or -1): hosts
// differ, and a missing figure is not an error.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "metrics/roce_qos.h"

namespace ccb {

struct NicManifest {
  std::string name;        // "eth0", or the RDMA device "mlx5_0"
  std::string driver;      // the PCI device's driver, "mlx5_core"
  std::string firmware;    // RDMA devices: fw_ver
  std::string pci_id;      // "15b3:1017" (vendor:device)
  std::string pci_address; // "0000:3b:00.0"
  std::string pcie_speed, pcie_max_speed;  // "8.0 GT/s PCIe"
  int pcie_width = -1, pcie_max_width = -1;
  int numa_node = -1;      // -1: the platform does not say
  int mtu = -1;            // netdevs only
  std::string iommu;       // its iommu_group's type: "identity", "DMA", "DMA-FQ"; "" none
  std::optional<RoceQos> roce;  // an RDMA port whose link layer is Ethernet
};

struct HostManifest {
  std::string governor;    // cpu0's scaling_governor; "" without cpufreq
  std::string rdma_core;   // the rdma-core release ("44.0"); "" when not installed
  std::vector<NicManifest> nics;
};

// `nic` is a netdev name, or an RDMA device with an optional port ("rxe0:1"); `pfc`
// reads a RoCE port's netdev's PFC (the kernel's DCB netlink on a real host).
NicManifest read_nic_manifest(const std::string& root, const std::string& nic, const PfcReader& pfc = read_pfc_by_dcbnl);
std::string read_governor(const std::string& root);
// The NUMA node holding `cpu`; -1 when the platform does not say.
int numa_node_of_cpu(const std::string& root, int cpu);

// One line each: a PCIe link below its maximum, a powersave governor, an RDMA device
// whose DMA the IOMMU translates, RoCE without PFC, and the placement warnings below.
std::vector<std::string> manifest_warnings(const std::string& root, const HostManifest& m,
                                           const std::vector<int>& rank_cpus);
// One rank's own: a NIC on another NUMA node than every CPU of `rank_cpus` (the CPUs
// the rank may run on). Every rank checks its own placement.
std::vector<std::string> placement_warnings(const std::string& root, const HostManifest& m,
                                            const std::vector<int>& rank_cpus);

// The CPUs this process may run on (sched_getaffinity).
std::vector<int> allowed_cpus();
// The CPUs of NUMA node `node`; empty when the platform does not say.
std::vector<int> numa_node_cpus(const std::string& root, int node);

}  // namespace ccb
