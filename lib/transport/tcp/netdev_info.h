// What Linux tells about a network interface: its rate, driver, firmware and byte
// counter, for the socket transports' LinkInfo.
#pragma once
#include <string>

#include "net/socket_util.h"
#include "transport/transport.h"

namespace ccb {

// The interface that holds `addr` ("lo" for 127.0.0.1); "" when none does.
std::string interface_holding(const SockAddr& addr);
// Rate from /sys/class/net/<if>/speed (0 when it reports none, as loopback and veth
// do), driver and firmware from the ethtool ioctl, and the tx_bytes counter.
LinkInfo netdev_link(const std::string& iface);

}  // namespace ccb
