// The host manifest's readers and warnings, and --bind-numa's choice, on fake sysfs trees.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "job/preflight.h"
#include "metrics/host_manifest.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::test;
namespace fs = std::filesystem;

namespace {

struct PciLink {
  int width = 16, max_width = 16;
  std::string speed = "8.0 GT/s PCIe", max_speed = "8.0 GT/s PCIe";
  int numa = 0;
};

void put(const TempDir& t, const std::string& rel, const std::string& text) {
  fs::create_directories(fs::path(t / rel).parent_path());
  std::ofstream(t / rel) << text << "\n";
}

// Two NUMA nodes (CPUs 0-3 and 4-7), a governor, and one ConnectX-5 at 0000:3b:00.0
// seen as netdev eth0 and RDMA device mlx5_0.
void make_host(const TempDir& t, const PciLink& link, const std::string& governor) {
  const std::string pci = "sys/devices/pci0000:3a/0000:3b:00.0";
  put(t, pci + "/current_link_width", std::to_string(link.width));
  put(t, pci + "/max_link_width", std::to_string(link.max_width));
  put(t, pci + "/current_link_speed", link.speed);
  put(t, pci + "/max_link_speed", link.max_speed);
  put(t, pci + "/numa_node", std::to_string(link.numa));
  put(t, pci + "/vendor", "0x15b3");
  put(t, pci + "/device", "0x1017");
  fs::create_directories(t / "sys/bus/pci/drivers/mlx5_core");
  fs::create_symlink("../../../bus/pci/drivers/mlx5_core", t / (pci + "/driver"));
  put(t, "sys/class/net/eth0/mtu", "9000");
  fs::create_symlink("../../../devices/pci0000:3a/0000:3b:00.0", t / "sys/class/net/eth0/device");
  put(t, "sys/class/infiniband/mlx5_0/fw_ver", "16.35.2000");
  fs::create_symlink("../../../devices/pci0000:3a/0000:3b:00.0", t / "sys/class/infiniband/mlx5_0/device");
  put(t, "sys/devices/system/node/node0/cpulist", "0-3");
  put(t, "sys/devices/system/node/node1/cpulist", "4-7");
  put(t, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", governor);
}

HostManifest manifest_of(const TempDir& t, const std::string& nic) {
  return HostManifest{read_governor(t.path), {read_nic_manifest(t.path, nic)}};
}

}  // namespace

TEST_CASE("a healthy host: every field read, no warning", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{}, "performance");
  const HostManifest m = manifest_of(t, "eth0");
  const NicManifest& n = m.nics.front();
  CHECK(m.governor == "performance");
  CHECK(n.driver == "mlx5_core");
  CHECK(n.pci_id == "15b3:1017");
  CHECK(n.pci_address == "0000:3b:00.0");
  CHECK(n.pcie_width == 16);
  CHECK(n.pcie_speed == "8.0 GT/s PCIe");
  CHECK(n.numa_node == 0);
  CHECK(n.mtu == 9000);
  CHECK(manifest_warnings(t.path, m, {0, 1}).empty());
  const NicManifest rdma = read_nic_manifest(t.path, "mlx5_0:1");
  CHECK(rdma.name == "mlx5_0");
  CHECK(rdma.firmware == "16.35.2000");
  CHECK(rdma.driver == "mlx5_core");
  CHECK(rdma.mtu == -1);
}

TEST_CASE("a PCIe link at x8 of x16 is warned, and one at a lower speed", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{8, 16, "2.5 GT/s PCIe", "8.0 GT/s PCIe", 0}, "performance");
  const auto w = manifest_warnings(t.path, manifest_of(t, "eth0"), {0});
  REQUIRE(w.size() == 2);
  CHECK(w[0] == "eth0's PCIe link runs at x8 of x16: reseat the card or move it to a full-width slot");
  CHECK(w[1] == "eth0's PCIe link runs at 2.5 GT/s PCIe of 8.0 GT/s PCIe: check the slot and the BIOS link settings");
}

TEST_CASE("a NIC on the other NUMA node than the rank's CPUs is warned", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{16, 16, "8.0 GT/s PCIe", "8.0 GT/s PCIe", 1}, "performance");
  const auto w = manifest_warnings(t.path, manifest_of(t, "mlx5_0:1"), {0, 1, 2});
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("mlx5_0 is on NUMA node 1 but this rank runs on node 0's CPUs") &&
                       Catch::Contains("numactl --cpunodebind=1"));
  CHECK(placement_warnings(t.path, manifest_of(t, "mlx5_0:1"), {0}) == w);
  CHECK(manifest_warnings(t.path, manifest_of(t, "mlx5_0:1"), {4, 5}).empty());     // near the NIC
  CHECK(manifest_warnings(t.path, manifest_of(t, "mlx5_0:1"), {3, 4}).empty());     // may run near it
}

TEST_CASE("a powersave governor is warned; a host without cpufreq or NUMA says nothing", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{}, "powersave");
  const auto w = manifest_warnings(t.path, manifest_of(t, "eth0"), {0});
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("the CPU frequency governor is powersave"));
  TempDir bare;
  put(bare, "sys/class/net/lo/mtu", "65536");
  const HostManifest m = manifest_of(bare, "lo");
  CHECK(m.governor.empty());
  CHECK(m.nics.front().numa_node == -1);
  CHECK(m.nics.front().mtu == 65536);
  CHECK(manifest_warnings(bare.path, m, {0}).empty());
}

TEST_CASE("with --bind-numa a rank takes the CPUs of its NIC's node, on a machine that says which node", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{16, 16, "8.0 GT/s PCIe", "8.0 GT/s PCIe", 1}, "performance");
  CHECK(cpus_near_nic(t.path, "mlx5_0:1") == std::vector<int>{4, 5, 6, 7});
  CHECK(cpus_near_nic(t.path, "eth0") == std::vector<int>{4, 5, 6, 7});
  TempDir bare;
  put(bare, "sys/class/net/lo/mtu", "65536");
  CHECK_THROWS_WITH(cpus_near_nic(bare.path, "lo"),
                    "--bind-numa: this machine does not say which NUMA node lo is on (no numa_node, or -1, in its sysfs "
                    "device): drop --bind-numa, or bind by hand (numactl, --bind-cores)");
}
