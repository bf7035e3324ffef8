// The host state that explains a bad figure, read from sysfs and procfs and kept in
// every result record: the NIC's driver, firmware and PCIe link (current against its
// maximum), its NUMA node against the CPUs a rank runs on, its MTU, and the CPU
// frequency governor. Every path starts at `root` ("/" on a real host), so tests run
// on fake trees. A file that cannot be read leaves its field empty (or -1): hosts
// differ, and a missing figure is not an error.
#pragma once
#include <string>
#include <vector>

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
};

struct HostManifest {
  std::string governor;    // cpu0's scaling_governor; "" without cpufreq
  std::vector<NicManifest> nics;
};

// `nic` is a netdev name, or an RDMA device with an optional port ("rxe0:1").
NicManifest read_nic_manifest(const std::string& root, const std::string& nic);
std::string read_governor(const std::string& root);
// The NUMA node holding `cpu`; -1 when the platform does not say.
int numa_node_of_cpu(const std::string& root, int cpu);

// One line each: a PCIe link below its maximum, a powersave governor, and the
// placement warnings below.
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
