#include "transport/ipoib/ipoib_transport.h"

#include <unistd.h>

#include "transport/tcp/netdev_info.h"

namespace ccb {

TcpOptions IpoibTransport::bound_to(TcpOptions o, const IpoibInterface& i) {
  o.iface = i.name;
  o.address.clear();
  return o;
}

IpoibTransport::IpoibTransport(int rank, uint64_t token, TcpOptions tcp, IpoibInterface chosen, std::string root)
    : iface_(std::move(chosen)), root_(std::move(root)), tcp_(rank, token, bound_to(tcp, iface_), "127.0.0.1", "ipoib") {}

std::string IpoibTransport::describe() const { return tcp_.describe() + " ipoib=[" + iface_.describe() + "]"; }

LinkInfo IpoibTransport::link() const { return ipoib_link(iface_, root_); }

LinkInfo ipoib_link(const IpoibInterface& i, const std::string& root) {
  LinkInfo l = netdev_link(i.name);
  if (i.hca.empty()) return l;  // forced onto a non-IPoIB netdev
  l.nic = i.name + " (" + i.hca + ":" + std::to_string(i.port) + ", " + i.mode + ")";
  l.line_rate_gbps = i.rate_gbps;
  // The port counts every IPoIB packet with its InfiniBand headers; the netdev's
  // tx_bytes (the fallback) counts IP payload only.
  std::string counter = root + "/sys/class/infiniband/" + i.hca + "/ports/" + std::to_string(i.port) +
                        "/counters/port_xmit_data";
  if (access(counter.c_str(), R_OK) == 0) {
    l.tx_counter = counter;
    l.tx_counter_unit = 4;
  }
  return l;
}

}  // namespace ccb
