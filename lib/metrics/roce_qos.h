// What makes RoCE lossless or not, and what else on the host taxes RDMA, for the host
// manifest: PFC per priority (the kernel's DCB netlink, IEEE 802.1Qbb), ECN per priority
// (mlx5's sysfs: notification and reaction points), the default RoCE ToS (rdma_cm's
// configfs) or traffic class (mlx5's sysfs), the IOMMU's treatment of the device's DMA,
// and the rdma-core release. Each is read where the host offers it and left unknown (-1,
// "") where it does not; paths start at `root` so tests run on fake trees.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace ccb {

struct RoceQos {
  std::string netdev;      // the Ethernet netdev under the RDMA port
  int pfc_enabled = -1;    // bitmap: priorities with PFC on; -1 unknown
  int ecn_np = -1, ecn_rp = -1;  // bitmaps: priorities with ECN (notification, reaction point)
  int tos = -1;            // rdma_cm's default RoCE ToS byte (DSCP = tos >> 2); -1 unknown
  int traffic_class = -1;  // mlx5's RoCE traffic class; -1 unknown
};

// PFC of a netdev as a bitmap of priorities, or -1 when it cannot be read.
using PfcReader = std::function<int(const std::string& netdev)>;
// The kernel's answer to DCB_CMD_IEEE_GET (RTM_GETDCB).
int read_pfc_by_dcbnl(const std::string& netdev);
// The PFC bitmap in a DCB netlink reply; -1 for an error reply or one without it.
int pfc_from_dcb_reply(const void* data, size_t bytes);

// True when `dev`'s `port` runs RoCE (its link layer is Ethernet).
bool is_roce_port(const std::string& root, const std::string& dev, int port);
RoceQos read_roce_qos(const std::string& root, const std::string& dev, int port, const PfcReader& pfc);

// The IOMMU's handling of a PCI device's DMA: its iommu_group's type ("identity":
// passed through; "DMA", "DMA-FQ": translated); "" without an IOMMU group.
std::string read_iommu_type(const std::string& device_dir);

// The rdma-core release from libibverbs's file name ("libibverbs.so.1.14.44.0" ->
// "44.0"), looked up under root's library folders; "" when not found.
std::string rdma_core_from_library_name(const std::string& file_name);
std::string read_rdma_core_version(const std::string& root);

// "3" or "3,4" for a bitmap of priorities; "none" for 0; "unknown" for -1.
std::string priorities_text(int bitmap);

}  // namespace ccb
