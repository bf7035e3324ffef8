// Finding IPoIB interfaces and what runs underneath them, from sysfs: an interface of
// type 32 (ARPHRD_INFINIBAND), its mode (datagram: UD, MTU up to 4092; connected: RC,
// MTU up to 65520), its MTU, the HCA and port it rides on and that port's rate.
// Every path starts at `root` ("/" on a real host), so tests run on fake trees.
#pragma once
#include <string>
#include <vector>

namespace ccb {

struct IpoibInterface {
  std::string name;        // "ib0"
  std::string mode;        // "datagram" or "connected"
  int mtu = 0;
  std::string hca;         // "mlx5_0"; "" when sysfs does not say
  int port = 1;
  double rate_gbps = 0;    // the InfiniBand port's rate; 0 when unknown
  bool enhanced = false;   // enhanced IPoIB (mlx5, ConnectX-4 and later): datagram only
  std::string describe() const;  // "ib0 on mlx5_0:1, connected, mtu 65520, 100 Gb/s"
};

struct IpoibOptions {
  std::string root = "/";  // filesystem root holding sys/ and proc/
  bool force = false;      // --ipoib-force: run over a non-IPoIB interface anyway
};

bool is_ipoib(const std::string& root, const std::string& iface);
std::vector<std::string> ipoib_interface_names(const std::string& root);
// Throws kInvalidArgument when `iface` is not IPoIB.
IpoibInterface read_ipoib_interface(const std::string& root, const std::string& iface);
// --iface, or the first IPoIB interface. Without IPoIB (or with a non-IPoIB --iface)
// a one-line kInvalidArgument names the fix, unless forced: then the interface is
// described as it is (mode "none").
IpoibInterface choose_ipoib_interface(const IpoibOptions& o, const std::string& iface);
// Settings that leave bandwidth on the table (datagram mode, small MTU, capped socket
// buffers), one line each with the fix.
std::vector<std::string> ipoib_warnings(const IpoibOptions& o, const IpoibInterface& i, int socket_buffer);
// "100 Gb/sec (4X EDR)" -> 100; 0 when unreadable.
double parse_ib_rate(const std::string& text);

}  // namespace ccb
