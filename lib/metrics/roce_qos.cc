#include "metrics/roce_qos.h"

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include "core/fd.h"

namespace ccb {

namespace fs = std::filesystem;

namespace {

std::string first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// ECN per priority: files 0..7 under `dir`, each "1" for on. -1 when the folder is absent.
int ecn_bitmap(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return -1;
  int bits = 0;
  for (int prio = 0; prio < 8; ++prio)
    if (first_line(dir / std::to_string(prio)) == "1") bits |= 1 << prio;
  return bits;
}

int int_or_unknown(const std::string& s) {
  try {
    return s.empty() ? -1 : std::stoi(s, nullptr, 0);
  } catch (const std::exception&) {
    return -1;
  }
}

// "tclass=106" (mlx5's tc file) or a plain number.
int traffic_class_of(const std::string& s) {
  const size_t eq = s.find('=');
  return int_or_unknown(eq == std::string::npos ? s : s.substr(eq + 1));
}

}  // namespace

int pfc_from_dcb_reply(const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  if (bytes < NLMSG_HDRLEN) return -1;
  nlmsghdr nh;
  std::memcpy(&nh, p, sizeof nh);
  if (nh.nlmsg_type != RTM_GETDCB || nh.nlmsg_len > bytes || nh.nlmsg_len < NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(dcbmsg)))
    return -1;
  // Attributes after the dcbmsg; DCB_ATTR_IEEE nests DCB_ATTR_IEEE_PFC.
  size_t at = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(dcbmsg)), end = nh.nlmsg_len;
  bool nested = false;
  while (at + sizeof(rtattr) <= end) {
    rtattr a;
    std::memcpy(&a, p + at, sizeof a);
    if (a.rta_len < sizeof(rtattr) || at + a.rta_len > end) return -1;
    const size_t payload = at + RTA_LENGTH(0), payload_bytes = a.rta_len - RTA_LENGTH(0);
    if (!nested && a.rta_type == DCB_ATTR_IEEE) {
      nested = true;
      end = at + a.rta_len;
      at = payload;
      continue;
    }
    if (nested && a.rta_type == DCB_ATTR_IEEE_PFC && payload_bytes >= sizeof(ieee_pfc)) {
      ieee_pfc pfc;
      std::memcpy(&pfc, p + payload, sizeof pfc);
      return pfc.pfc_en;
    }
    at += RTA_ALIGN(a.rta_len);
  }
  return -1;
}

int read_pfc_by_dcbnl(const std::string& netdev) {
  if (netdev.empty() || netdev.size() >= 16) return -1;
  Fd sock(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
  if (sock.get() < 0) return -1;
  timeval limit{1, 0};  // a kernel without DCB for this device may not answer at all
  setsockopt(sock.get(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  struct {
    nlmsghdr nh;
    dcbmsg dcb;
    char attrs[RTA_SPACE(16)];
  } req{};
  req.nh.nlmsg_len = static_cast<__u32>(NLMSG_LENGTH(sizeof(dcbmsg)) + RTA_LENGTH(netdev.size() + 1));
  req.nh.nlmsg_type = RTM_GETDCB;
  req.nh.nlmsg_flags = NLM_F_REQUEST;
  req.nh.nlmsg_seq = 1;
  req.dcb.dcb_family = AF_UNSPEC;
  req.dcb.cmd = DCB_CMD_IEEE_GET;
  rtattr name{static_cast<unsigned short>(RTA_LENGTH(netdev.size() + 1)), DCB_ATTR_IFNAME};
  std::memcpy(req.attrs, &name, sizeof name);
  std::memcpy(req.attrs + RTA_LENGTH(0), netdev.c_str(), netdev.size() + 1);
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  if (::sendto(sock.get(), &req, req.nh.nlmsg_len, 0, reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) < 0) return -1;
  alignas(nlmsghdr) char reply[8192];
  const ssize_t n = ::recv(sock.get(), reply, sizeof reply, 0);
  return n > 0 ? pfc_from_dcb_reply(reply, static_cast<size_t>(n)) : -1;
}

bool is_roce_port(const std::string& root, const std::string& dev, int port) {
  return first_line(fs::path(root) / "sys/class/infiniband" / dev / "ports" / std::to_string(port) / "link_layer") == "Ethernet";
}

RoceQos read_roce_qos(const std::string& root, const std::string& dev, int port, const PfcReader& pfc) {
  RoceQos q;
  const fs::path ib = fs::path(root) / "sys/class/infiniband" / dev;
  q.netdev = first_line(ib / "ports" / std::to_string(port) / "gid_attrs/ndevs/0");
  if (!q.netdev.empty()) {
    q.pfc_enabled = pfc(q.netdev);
    const fs::path ecn = fs::path(root) / "sys/class/net" / q.netdev / "ecn";
    q.ecn_np = ecn_bitmap(ecn / "roce_np/enable");
    q.ecn_rp = ecn_bitmap(ecn / "roce_rp/enable");
  }
  q.tos = int_or_unknown(first_line(fs::path(root) / "sys/kernel/config/rdma_cm" / dev / "ports" / std::to_string(port) / "default_roce_tos"));
  q.traffic_class = traffic_class_of(first_line(ib / "tc" / std::to_string(port) / "traffic_class"));
  return q;
}

std::string read_iommu_type(const std::string& device_dir) {
  return first_line(fs::path(device_dir) / "iommu_group/type");
}

std::string rdma_core_from_library_name(const std::string& file_name) {
  std::smatch m;
  static const std::regex form(R"(libibverbs\.so\.1\.\d+\.(\d+\.\d+))");
  return std::regex_match(file_name, m, form) ? m[1].str() : "";
}

std::string read_rdma_core_version(const std::string& root) {
  std::error_code ec;
  for (const fs::path& dir : {fs::path(root) / "usr/lib", fs::path(root) / "usr/lib64", fs::path(root) / "lib"}) {
    std::vector<fs::path> candidates{dir / "libibverbs.so.1"};
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_directory(ec)) candidates.push_back(e.path() / "libibverbs.so.1");
    for (const fs::path& link : candidates) {
      const fs::path target = fs::read_symlink(link, ec);
      if (ec) continue;
      const std::string v = rdma_core_from_library_name(target.filename().string());
      if (!v.empty()) return v;
    }
  }
  return "";
}

std::string priorities_text(int bitmap) {
  if (bitmap < 0) return "unknown";
  std::string s;
  for (int prio = 0; prio < 8; ++prio)
    if (bitmap & (1 << prio)) {
      if (!s.empty()) s += ',';
      s += std::to_string(prio);
    }
  return s.empty() ? "none" : s;
}

}  // namespace ccb
