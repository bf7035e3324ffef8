#include "transport/ipoib/ipoib_interface.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace ccb {

namespace fs = std::filesystem;

namespace {

constexpr int kArphrdInfiniband = 32;

std::string read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

long read_long(const fs::path& p, long fallback) {
  try {
    std::string s = read_line(p);
    return s.empty() ? fallback : std::stol(s, nullptr, 0);
  } catch (const std::exception&) {
    return fallback;
  }
}

fs::path net_dir(const std::string& root, const std::string& iface) { return fs::path(root) / "sys/class/net" / iface; }

std::string first_entry(const fs::path& dir) {
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names.empty() ? "" : names.front();
}

}  // namespace

double parse_ib_rate(const std::string& text) {
  std::istringstream in(text);
  double v = 0;
  return in >> v && v > 0 ? v : 0;
}

std::string IpoibInterface::describe() const {
  std::ostringstream s;
  s << name;
  if (!hca.empty()) s << " on " << hca << ":" << port;
  s << ", " << mode << (enhanced ? " (enhanced IPoIB)" : "") << ", mtu " << mtu;
  if (rate_gbps > 0) s << ", " << rate_gbps << " Gb/s";
  return s.str();
}

bool is_ipoib(const std::string& root, const std::string& iface) {
  return read_long(net_dir(root, iface) / "type", -1) == kArphrdInfiniband;
}

std::vector<std::string> ipoib_interface_names(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(root) / "sys/class/net", ec))
    if (is_ipoib(root, e.path().filename().string())) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

IpoibInterface read_ipoib_interface(const std::string& root, const std::string& iface) {
  const fs::path dir = net_dir(root, iface);
  if (!fs::exists(dir)) throw_invalid("no network interface named '" + iface + "': see `ip -brief link` for the names");
  if (!is_ipoib(root, iface))
    throw_invalid(iface + " is not an IPoIB interface (its type is " + read_line(dir / "type") +
                  ", not 32): pick an ib* interface with --iface, or add --ipoib-force to run over it anyway");
  IpoibInterface i;
  i.name = iface;
  i.mode = read_line(dir / "mode");
  if (i.mode.empty()) i.mode = "datagram";  // kernels without the attribute have only this
  i.mtu = static_cast<int>(read_long(dir / "mtu", 0));
  i.hca = first_entry(dir / "device/infiniband");
  i.port = static_cast<int>(read_long(dir / "dev_port", 0)) + 1;  // dev_port counts from 0
  if (!i.hca.empty())
    i.rate_gbps = parse_ib_rate(read_line(fs::path(root) / "sys/class/infiniband" / i.hca / "ports" /
                                          std::to_string(i.port) / "rate"));
  // ConnectX-4 and later (mlx5) run enhanced IPoIB unless ib_ipoib was loaded with
  // ipoib_enhanced=0; it offloads datagram mode and has no connected mode.
  std::string enhanced_param = read_line(fs::path(root) / "sys/module/ib_ipoib/parameters/ipoib_enhanced");
  i.enhanced = i.hca.rfind("mlx5", 0) == 0 && enhanced_param != "N" && enhanced_param != "0";
  return i;
}

IpoibInterface choose_ipoib_interface(const IpoibOptions& o, const std::string& iface) {
  if (!iface.empty() && o.force && !is_ipoib(o.root, iface)) {
    if (!fs::exists(net_dir(o.root, iface)))
      throw_invalid("no network interface named '" + iface + "': see `ip -brief link` for the names");
    IpoibInterface i;
    i.name = iface;
    i.mode = "none (not IPoIB, --ipoib-force)";
    i.mtu = static_cast<int>(read_long(net_dir(o.root, iface) / "mtu", 0));
    return i;
  }
  if (!iface.empty()) return read_ipoib_interface(o.root, iface);
  auto names = ipoib_interface_names(o.root);
  if (names.empty())
    throw_invalid("no IPoIB interface on this host (none of type 32 in /sys/class/net): load ib_ipoib on an "
                  "InfiniBand host, or use --transport tcp");
  return read_ipoib_interface(o.root, names.front());
}

std::vector<std::string> ipoib_warnings(const IpoibOptions& o, const IpoibInterface& i, int socket_buffer) {
  std::vector<std::string> w;
  if (i.mode == "datagram" && !i.enhanced)
    w.push_back(i.name + " runs IPoIB in datagram mode (mtu " + std::to_string(i.mtu) +
                "): connected mode carries up to 65520 B per packet (echo connected > /sys/class/net/" + i.name +
                "/mode; ip link set " + i.name + " mtu 65520)");
  else if (i.mode == "datagram" && i.mtu < 4092)
    w.push_back(i.name + " has mtu " + std::to_string(i.mtu) + ": enhanced IPoIB allows 4092 (ip link set " + i.name +
                " mtu 4092)");
  else if (i.mode == "connected" && i.mtu < 65520)
    w.push_back(i.name + " is in connected mode with mtu " + std::to_string(i.mtu) + ": raise it to 65520 (ip link set " +
                i.name + " mtu 65520)");
  // Autotuning grows a socket's buffers up to tcp_rmem/tcp_wmem's maximum; an explicit
  // --socket-buffer is capped by rmem_max/wmem_max instead.
  const fs::path sys_net = fs::path(o.root) / "proc/sys/net";
  auto third = [](const std::string& line) {
    std::istringstream in(line);
    long a = 0, b = 0, c = 0;
    return in >> a >> b >> c ? c : 0L;
  };
  const long cap = socket_buffer > 0 ? std::min(read_long(sys_net / "core/rmem_max", 0), read_long(sys_net / "core/wmem_max", 0))
                                     : std::min(third(read_line(sys_net / "ipv4/tcp_rmem")), third(read_line(sys_net / "ipv4/tcp_wmem")));
  const long want = socket_buffer > 0 ? socket_buffer : 16L << 20;
  const char* knobs = socket_buffer > 0 ? "net.core.rmem_max/wmem_max" : "net.ipv4.tcp_rmem/tcp_wmem";
  if (cap > 0 && cap < want)
    w.push_back("socket buffers are capped at " + std::to_string(cap) + " B by " + knobs + ": IPoIB at 100G wants " +
                std::to_string(want) + " B or more (raise the maximum with sysctl)");
  return w;
}

}  // namespace ccb
