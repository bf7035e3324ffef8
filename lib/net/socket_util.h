// Sockets and addresses (RAII fds, resolve, listen, connect with deadlines, local
// addresses), shared by the TCP transport, the verbs handshake and the bootstrap.
#pragma once
#include <sys/socket.h>

#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include "core/fd.h"
#include "core/units.h"

namespace ccb {

struct SockAddr {
  sockaddr_storage storage{};
  socklen_t len = 0;
  int family() const { return storage.ss_family; }
  int port() const;
  void set_port(int port);
  std::string ip() const;
  std::string to_string() const;  // "127.0.0.1:29500" or "[::1]:29500"
};

// "127.0.0.1", "::1", "localhost", or a host name; port is applied as given.
SockAddr resolve_host(const std::string& host, int port);
// The first address (IPv4 preferred unless want_ipv6) of a named interface.
SockAddr interface_address(const std::string& iface, bool want_ipv6);
SockAddr local_address_of(int fd);
// The IPv4 address other hosts most likely reach this one at, when nothing names it:
// the first interface that is up, not loopback and not a container bridge (docker*,
// virbr*, lxcbr*), InfiniBand's (ib*) first, as NCCL picks its socket interface. ""
// when there is none.
std::string routable_ipv4();

Fd listen_on(const SockAddr& addr, int backlog);
// Connects with retries until the deadline (the peer may not listen yet). `between`,
// if given, runs before each retry and may throw to give up early (an abort).
Fd connect_to(const SockAddr& addr, Deadline deadline, bool retry_refused,
              const std::function<void()>& between = {});
void set_nonblocking(int fd, bool on);
void set_nodelay(int fd);
void set_buffer_sizes(int fd, int bytes);  // 0 keeps the kernel's autotuning
void set_congestion_control(int fd, const std::string& name);  // empty: the default
void check_congestion_control(const std::string& name);       // the same error, up front
// The algorithm new TCP sockets of this network namespace get; "" if unreadable.
std::string default_congestion_control();

// Blocking exchange helpers for handshakes; false on EOF, throw on error or deadline.
bool read_exact(int fd, void* buf, size_t n, Deadline deadline);
void write_exact(int fd, const void* buf, size_t n, Deadline deadline);

}  // namespace ccb
