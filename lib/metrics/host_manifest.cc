#include "metrics/host_manifest.h"

#include <sched.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ccb {

namespace fs = std::filesystem;

namespace {

std::string read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

int read_int(const fs::path& p) {
  try {
    const std::string s = read_line(p);
    return s.empty() ? -1 : std::stoi(s, nullptr, 0);
  } catch (const std::exception&) {
    return -1;
  }
}

std::string link_name(const fs::path& p) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(p, ec);
  return ec ? std::string() : target.filename().string();
}

std::string hex_id(const fs::path& p) {  // "0x15b3" -> "15b3"
  std::string s = read_line(p);
  return s.rfind("0x", 0) == 0 ? s.substr(2) : s;
}

// "0-3,8-11" -> {0,1,2,3,8,9,10,11}; a malformed part ends the list.
std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    try {
      const size_t dash = part.find('-');
      const int lo = std::stoi(part.substr(0, dash));
      const int hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
      for (int c = lo; c <= hi && c - lo < 65536; ++c) out.push_back(c);
    } catch (const std::exception&) {
      break;
    }
  }
  return out;
}

int read_port(const std::string& s) {
  try {
    return std::stoi(s);
  } catch (const std::exception&) {
    return 1;
  }
}

// The PCI device directory behind a netdev or an RDMA device.
fs::path device_dir(const fs::path& root, const std::string& name, bool rdma) {
  return root / "sys/class" / (rdma ? "infiniband" : "net") / name / "device";
}

}  // namespace

NicManifest read_nic_manifest(const std::string& root, const std::string& nic, const PfcReader& pfc) {
  NicManifest m;
  const std::string name = nic.substr(0, nic.find(':'));
  const bool rdma = nic.find(':') != std::string::npos || fs::exists(fs::path(root) / "sys/class/infiniband" / name);
  m.name = name;
  const fs::path dev = device_dir(root, name, rdma);
  m.driver = link_name(dev / "driver");
  const std::string vendor = hex_id(dev / "vendor"), device = hex_id(dev / "device");
  if (!vendor.empty() && !device.empty()) m.pci_id = vendor + ":" + device;
  std::error_code ec;
  const fs::path resolved = fs::canonical(dev, ec);
  if (!ec) m.pci_address = resolved.filename().string();
  m.pcie_speed = read_line(dev / "current_link_speed");
  m.pcie_max_speed = read_line(dev / "max_link_speed");
  m.pcie_width = read_int(dev / "current_link_width");
  m.pcie_max_width = read_int(dev / "max_link_width");
  m.numa_node = read_int(dev / "numa_node");
  m.iommu = read_iommu_type(dev.string());
  if (rdma) m.firmware = read_line(fs::path(root) / "sys/class/infiniband" / name / "fw_ver");
  else m.mtu = read_int(fs::path(root) / "sys/class/net" / name / "mtu");
  const size_t colon = nic.find(':');
  const int port = colon == std::string::npos ? 1 : std::max(1, read_port(nic.substr(colon + 1)));
  if (rdma && is_roce_port(root, name, port)) m.roce = read_roce_qos(root, name, port, pfc);
  return m;
}

std::string read_governor(const std::string& root) {
  return read_line(fs::path(root) / "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
}

int numa_node_of_cpu(const std::string& root, int cpu) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(root) / "sys/devices/system/node", ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("node", 0) != 0 || n.size() == 4) continue;
    const std::vector<int> cpus = parse_cpu_list(read_line(e.path() / "cpulist"));
    if (std::find(cpus.begin(), cpus.end(), cpu) != cpus.end()) {
      try {
        return std::stoi(n.substr(4));
      } catch (const std::exception&) {
        return -1;
      }
    }
  }
  return -1;
}

// "8.0 GT/s PCIe" -> 8.0; 0 when unreadable.
static double gts(const std::string& speed) {
  try {
    return speed.empty() ? 0 : std::stod(speed);
  } catch (const std::exception&) {
    return 0;
  }
}

std::vector<std::string> placement_warnings(const std::string& root, const HostManifest& m,
                                            const std::vector<int>& rank_cpus) {
  std::vector<std::string> out;
  for (const NicManifest& n : m.nics) {
    if (n.numa_node < 0 || rank_cpus.empty()) continue;
    std::set<int> nodes;
    for (int c : rank_cpus) nodes.insert(numa_node_of_cpu(root, c));
    if (!nodes.count(n.numa_node) && !nodes.count(-1))
      out.push_back(n.name + " is on NUMA node " + std::to_string(n.numa_node) + " but this rank runs on node " +
                    std::to_string(*nodes.begin()) + "'s CPUs: every byte crosses the socket link; "
                    "bind the rank near the NIC (--bind-numa, or numactl --cpunodebind=" +
                    std::to_string(n.numa_node) + ")");
  }
  return out;
}

// What costs an RDMA device its rate or its losslessness.
static std::vector<std::string> rdma_warnings(const NicManifest& n) {
  std::vector<std::string> out;
  const bool rdma = !n.firmware.empty() || n.roce;
  if (rdma && (n.iommu == "DMA" || n.iommu == "DMA-FQ"))
    out.push_back("the IOMMU translates " + n.name + "'s DMA (iommu_group type " + n.iommu +
                  "), which costs RDMA on every page it touches: boot with iommu=pt to pass it through");
  if (n.roce && n.roce->pfc_enabled == 0) {
    const bool ecn = n.roce->ecn_np > 0 || n.roce->ecn_rp > 0;
    out.push_back("RoCE on " + n.name + " (" + n.roce->netdev + ") with PFC off on every priority" +
                  (ecn ? ", so only ECN (priorities " + priorities_text(n.roce->ecn_rp) + ") guards against drops"
                       : " and no ECN: a dropped packet stalls RDMA until its retransmit timeout") +
                  ": enable PFC on the RoCE priority (mlnx_qos -i " + n.roce->netdev + " --pfc 0,0,0,1,0,0,0,0) and "
                  "on the switch");
  }
  return out;
}

std::vector<std::string> manifest_warnings(const std::string& root, const HostManifest& m, const std::vector<int>& rank_cpus) {
  std::vector<std::string> out;
  if (m.governor == "powersave")
    out.push_back("the CPU frequency governor is powersave, which slows small messages: "
                  "cpupower frequency-set -g performance");
  for (const NicManifest& n : m.nics) {
    if (n.pcie_width > 0 && n.pcie_max_width > 0 && n.pcie_width < n.pcie_max_width)
      out.push_back(n.name + "'s PCIe link runs at x" + std::to_string(n.pcie_width) + " of x" +
                    std::to_string(n.pcie_max_width) + ": reseat the card or move it to a full-width slot");
    if (gts(n.pcie_speed) > 0 && gts(n.pcie_speed) < gts(n.pcie_max_speed))
      out.push_back(n.name + "'s PCIe link runs at " + n.pcie_speed + " of " + n.pcie_max_speed +
                    ": check the slot and the BIOS link settings");
    for (std::string& w : rdma_warnings(n)) out.push_back(std::move(w));
  }
  for (std::string& w : placement_warnings(root, m, rank_cpus)) out.push_back(std::move(w));
  return out;
}

std::vector<int> numa_node_cpus(const std::string& root, int node) {
  if (node < 0) return {};
  return parse_cpu_list(read_line(fs::path(root) / "sys/devices/system/node" / ("node" + std::to_string(node)) / "cpulist"));
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

}  // namespace ccb
