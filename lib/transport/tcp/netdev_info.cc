#include "transport/tcp/netdev_info.h"

#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>

#include <cstring>
#include <chrono>
#include <fstream>
#include <thread>

#include "core/error.h"

namespace ccb {

static bool same_ip(const sockaddr* a, const SockAddr& b) {
  if (a->sa_family != b.family()) return false;
  if (a->sa_family == AF_INET)
    return reinterpret_cast<const sockaddr_in*>(a)->sin_addr.s_addr ==
           reinterpret_cast<const sockaddr_in*>(&b.storage)->sin_addr.s_addr;
  if (a->sa_family == AF_INET6)
    return std::memcmp(&reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr,
                       &reinterpret_cast<const sockaddr_in6*>(&b.storage)->sin6_addr, sizeof(in6_addr)) == 0;
  return false;
}

std::string interface_holding(const SockAddr& addr) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "";
  std::string name;
  for (ifaddrs* i = list; i && name.empty(); i = i->ifa_next)
    if (i->ifa_addr && same_ip(i->ifa_addr, addr)) name = i->ifa_name;
  freeifaddrs(list);
  return name;
}

// Driver and firmware version; both "" when the interface does not answer.
static void ethtool_driver(const std::string& iface, LinkInfo& out) {
  Fd sock(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!sock) return;
  ethtool_drvinfo info{};
  info.cmd = ETHTOOL_GDRVINFO;
  ifreq req{};
  std::strncpy(req.ifr_name, iface.c_str(), IFNAMSIZ - 1);
  req.ifr_data = reinterpret_cast<char*>(&info);
  if (ioctl(sock.get(), SIOCETHTOOL, &req) != 0) return;
  out.driver = info.driver;
  if (std::strcmp(info.fw_version, "N/A") != 0) out.firmware = info.fw_version;
}

LinkInfo netdev_link(const std::string& iface) {
  LinkInfo l;
  if (iface.empty()) return l;
  l.nic = iface;
  const std::string dir = "/sys/class/net/" + iface;
  std::ifstream speed(dir + "/speed");
  long mbps = 0;
  if (speed >> mbps && mbps > 0) l.line_rate_gbps = static_cast<double>(mbps) / 1000.0;
  l.tx_counter = dir + "/statistics/tx_bytes";
  ethtool_driver(iface, l);
  return l;
}

// What /sys says of the interface's state; "" when there is no such interface.
static std::string operstate(const std::string& iface) {
  std::ifstream in("/sys/class/net/" + iface + "/operstate");
  std::string state;
  in >> state;
  return state;
}

void check_interface_up(const std::string& iface) {
  // A cable plugged in a moment ago reads as down until the kernel's link watch has
  // run (up to a second): wait that out before calling it down.
  constexpr int kPolls = 40;
  std::string state = operstate(iface);
  for (int i = 0; i < kPolls && (state == "down" || state == "lowerlayerdown"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    state = operstate(iface);
  }
  if (state == "down" || state == "lowerlayerdown" || state == "notpresent")
    throw_invalid("interface " + iface + " is " + state + " (its cable or switch port, or 'ip link set " + iface +
                  " down'): bring it up, or name only rails that are up in --iface");
}

}  // namespace ccb
