// Settings of the TCP (and IPoIB) socket transport, defaulted here, filled by the CLI.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ccb {

struct TcpOptions {
  // Sockets per peer connection (--tcp-streams). 1 measured best on loopback here
  // (2 streams: 7% slower at 25-64 MiB, 2 ranks); a real 25G+ NIC may want 2-4.
  int streams = 1;
  size_t min_chunk = 64 << 10;     // a message is split in chunks of at least this
  int socket_buffer = 0;           // SO_SNDBUF/SO_RCVBUF bytes; 0 keeps autotuning
  // TCP_CONGESTION of the data sockets (--tcp-cc); empty keeps the system's default.
  // Runs on long, fat or lossy links differ by it, so it is always reported.
  std::string congestion_control;
  std::string iface;               // bind to this interface's address (--iface)
  std::string address;             // or to this address (--bind)
  bool ipv6 = false;               // prefer the interface's IPv6 address
  size_t eager_limit = 64 << 10;       // larger messages wait for their receive
  size_t max_unexpected = 256ull << 20;  // bytes of small messages buffered unposted
};

}  // namespace ccb
