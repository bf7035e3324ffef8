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
// Throws kInvalidArgument, naming the interface and the fix, when Linux says it is down
// (operstate down, lowerlayerdown or notpresent: a pulled cable, a rail switched off).
// Loopback and virtual devices that report "unknown" pass. A cable that reads as down
// is given 2 s to come up first (a link just plugged in reads so for up to a second).
void check_interface_up(const std::string& iface);

}  // namespace ccb
