// The host manifest's readers and warnings, and --bind-numa's choice, on fake sysfs trees.
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "job/preflight.h"
#include "metrics/host_manifest.h"
#include "metrics/roce_qos.h"
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

int pfc_unknown(const std::string&) { return -1; }

HostManifest manifest_of(const TempDir& t, const std::string& nic, const PfcReader& pfc = pfc_unknown) {
  HostManifest m;
  m.governor = read_governor(t.path);
  m.nics = {read_nic_manifest(t.path, nic, pfc)};
  return m;
}

// mlx5_0's port 1 as RoCE over eth0, with what the host says of ECN and the ToS.
void make_roce(const TempDir& t, const std::string& ecn_rp_prio3) {
  put(t, "sys/class/infiniband/mlx5_0/ports/1/link_layer", "Ethernet");
  put(t, "sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0", "eth0");
  if (!ecn_rp_prio3.empty()) {
    for (int prio = 0; prio < 8; ++prio) {
      put(t, "sys/class/net/eth0/ecn/roce_np/enable/" + std::to_string(prio), prio == 3 ? ecn_rp_prio3 : "0");
      put(t, "sys/class/net/eth0/ecn/roce_rp/enable/" + std::to_string(prio), prio == 3 ? ecn_rp_prio3 : "0");
    }
  }
  put(t, "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "106");
  put(t, "sys/class/infiniband/mlx5_0/tc/1/traffic_class", "tclass=106");
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

TEST_CASE("RoCE without PFC is warned, naming the netdev and the fix; with PFC on the RoCE priority it is not", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{}, "performance");
  make_roce(t, "");
  const HostManifest lossy = manifest_of(t, "mlx5_0:1", [](const std::string& dev) { return dev == "eth0" ? 0 : -1; });
  REQUIRE(lossy.nics.front().roce);
  const RoceQos& q = *lossy.nics.front().roce;
  CHECK(q.netdev == "eth0");
  CHECK(q.pfc_enabled == 0);
  CHECK((q.ecn_np == -1 && q.ecn_rp == -1));  // this host does not say
  CHECK(q.tos == 106);                        // DSCP 26
  CHECK(q.traffic_class == 106);
  const auto w = manifest_warnings(t.path, lossy, {0});
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("RoCE on mlx5_0 (eth0) with PFC off on every priority and no ECN") &&
                       Catch::Contains("mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0"));
  const HostManifest lossless = manifest_of(t, "mlx5_0:1", [](const std::string&) { return 0x08; });
  CHECK(priorities_text(lossless.nics.front().roce->pfc_enabled) == "3");
  CHECK(manifest_warnings(t.path, lossless, {0}).empty());
  CHECK(manifest_warnings(t.path, manifest_of(t, "mlx5_0:1"), {0}).empty());  // PFC unknown: nothing to say
  CHECK_FALSE(manifest_of(t, "eth0").nics.front().roce);                     // a netdev is not an RDMA port
}

TEST_CASE("RoCE with ECN but no PFC is warned as lossy, naming the ECN priorities", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{}, "performance");
  make_roce(t, "1");
  const HostManifest m = manifest_of(t, "mlx5_0:1", [](const std::string&) { return 0; });
  CHECK(m.nics.front().roce->ecn_rp == 0x08);
  const auto w = manifest_warnings(t.path, m, {0});
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains("so only ECN (priorities 3) guards against drops"));
}

TEST_CASE("an IOMMU translating an RDMA device's DMA is warned; passthrough is not", "[manifest]") {
  TempDir t;
  make_host(t, PciLink{}, "performance");
  put(t, "sys/devices/pci0000:3a/0000:3b:00.0/iommu_group/type", "DMA-FQ");
  const HostManifest m = manifest_of(t, "mlx5_0:1");
  CHECK(m.nics.front().iommu == "DMA-FQ");
  const auto w = manifest_warnings(t.path, m, {0});
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains("the IOMMU translates mlx5_0's DMA (iommu_group type DMA-FQ)") && Catch::Contains("iommu=pt"));
  CHECK(manifest_warnings(t.path, manifest_of(t, "eth0"), {0}).empty());  // a TCP NIC: not RDMA's cost to name
  put(t, "sys/devices/pci0000:3a/0000:3b:00.0/iommu_group/type", "identity");
  CHECK(manifest_warnings(t.path, manifest_of(t, "mlx5_0:1"), {0}).empty());
}

TEST_CASE("the rdma-core release from libibverbs's file name", "[manifest]") {
  CHECK(rdma_core_from_library_name("libibverbs.so.1.14.44.0") == "44.0");
  CHECK(rdma_core_from_library_name("libibverbs.so.1.8.28.0") == "28.0");
  CHECK(rdma_core_from_library_name("libibverbs.so.1") == "");
  CHECK(rdma_core_from_library_name("libmlx5.so.1.24.44.0") == "");
  TempDir t;
  fs::create_directories(t / "usr/lib/x86_64-linux-gnu");
  fs::create_symlink("libibverbs.so.1.14.50.0", t / "usr/lib/x86_64-linux-gnu/libibverbs.so.1");
  CHECK(read_rdma_core_version(t.path) == "50.0");
  TempDir bare;
  CHECK(read_rdma_core_version(bare.path) == "");
}

TEST_CASE("PFC from a DCB netlink reply: the nested IEEE PFC attribute, and nothing from a short or odd one", "[manifest]") {
  // nlmsghdr, dcbmsg, DCB_ATTR_IEEE { DCB_ATTR_IEEE_PFC { struct ieee_pfc } }
  std::vector<char> msg(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(dcbmsg)) + RTA_SPACE(RTA_SPACE(sizeof(ieee_pfc))), 0);
  nlmsghdr nh{};
  nh.nlmsg_len = static_cast<__u32>(msg.size());
  nh.nlmsg_type = RTM_GETDCB;
  std::memcpy(msg.data(), &nh, sizeof nh);
  size_t at = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(dcbmsg));
  rtattr outer{static_cast<unsigned short>(RTA_LENGTH(RTA_SPACE(sizeof(ieee_pfc)))), DCB_ATTR_IEEE};
  std::memcpy(msg.data() + at, &outer, sizeof outer);
  at += RTA_LENGTH(0);
  rtattr inner{static_cast<unsigned short>(RTA_LENGTH(sizeof(ieee_pfc))), DCB_ATTR_IEEE_PFC};
  std::memcpy(msg.data() + at, &inner, sizeof inner);
  ieee_pfc pfc{};
  pfc.pfc_en = 0x18;
  std::memcpy(msg.data() + at + RTA_LENGTH(0), &pfc, sizeof pfc);
  CHECK(pfc_from_dcb_reply(msg.data(), msg.size()) == 0x18);
  for (size_t cut : {size_t{0}, size_t{8}, msg.size() / 2, msg.size() - 1}) CHECK(pfc_from_dcb_reply(msg.data(), cut) == -1);
  nh.nlmsg_type = NLMSG_ERROR;
  std::memcpy(msg.data(), &nh, sizeof nh);
  CHECK(pfc_from_dcb_reply(msg.data(), msg.size()) == -1);
}
