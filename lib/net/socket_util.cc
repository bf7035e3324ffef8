#include "net/socket_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

#include "core/error.h"

namespace ccb {

int SockAddr::port() const {
  if (family() == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(storage).sin6_port);
  return ntohs(reinterpret_cast<const sockaddr_in&>(storage).sin_port);
}

void SockAddr::set_port(int port) {
  auto p = htons(static_cast<uint16_t>(port));
  if (family() == AF_INET6)
    reinterpret_cast<sockaddr_in6&>(storage).sin6_port = p;
  else
    reinterpret_cast<sockaddr_in&>(storage).sin_port = p;
}

std::string SockAddr::ip() const {
  char buf[INET6_ADDRSTRLEN] = {};
  const void* src = family() == AF_INET6
                        ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6&>(storage).sin6_addr)
                        : static_cast<const void*>(&reinterpret_cast<const sockaddr_in&>(storage).sin_addr);
  inet_ntop(family(), src, buf, sizeof buf);
  return buf;
}

std::string SockAddr::to_string() const {
  std::string s;
  if (family() == AF_INET6) s += '[';
  s += ip();
  if (family() == AF_INET6) s += ']';
  s += ':';
  s += std::to_string(port());
  return s;
}

SockAddr resolve_host(const std::string& host, int port) {
  std::string h = host;
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = getaddrinfo(h.c_str(), nullptr, &hints, &res);
  if (rc != 0 || !res)
    throw_invalid("cannot resolve host '" + host + "': " + gai_strerror(rc) +
                  " (check CCB_MASTER_ADDR / --iface)");
  SockAddr a;
  std::memcpy(&a.storage, res->ai_addr, res->ai_addrlen);
  a.len = res->ai_addrlen;
  freeaddrinfo(res);
  a.set_port(port);
  return a;
}

SockAddr interface_address(const std::string& iface, bool want_ipv6) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) throw_errno("getifaddrs");
  SockAddr found, fallback;
  bool seen_iface = false;
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || iface != i->ifa_name) continue;
    seen_iface = true;
    int fam = i->ifa_addr->sa_family;
    if (fam != AF_INET && fam != AF_INET6) continue;
    SockAddr a;
    a.len = fam == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
    std::memcpy(&a.storage, i->ifa_addr, a.len);
    bool wanted = (fam == AF_INET6) == want_ipv6;
    if (wanted && found.len == 0) found = a;
    if (!wanted && fallback.len == 0) fallback = a;
  }
  freeifaddrs(list);
  if (found.len == 0) found = fallback;
  if (found.len == 0)
    throw_invalid(seen_iface ? "interface '" + iface + "' has no IP address: assign one or pick another --iface"
                             : "no network interface named '" + iface + "': see `ip -brief addr` for the names");
  found.set_port(0);
  return found;
}

std::string routable_ipv4() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "";
  std::string ib, other;
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK))
      continue;
    const std::string name = i->ifa_name;
    if (name.starts_with("docker") || name.starts_with("virbr") || name.starts_with("lxcbr")) continue;
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof text);
    std::string& slot = name.starts_with("ib") ? ib : other;
    if (slot.empty()) slot = text;
  }
  freeifaddrs(list);
  return ib.empty() ? other : ib;
}

SockAddr local_address_of(int fd) {
  SockAddr a;
  a.len = sizeof a.storage;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&a.storage), &a.len) != 0) throw_errno("getsockname");
  return a;
}

Fd listen_on(const SockAddr& addr, int backlog) {
  Fd fd(::socket(addr.family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) throw_errno("socket");
  int one = 1;
  setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr.storage), addr.len) != 0) {
    if (errno == EADDRINUSE)
      throw Error(ErrorKind::kInvalidArgument,
                  "address " + addr.to_string() + " is already in use: pick a free port (CCB_MASTER_PORT)");
    if (errno == EADDRNOTAVAIL)
      throw Error(ErrorKind::kInvalidArgument, "address " + addr.ip() +
                                                   " is not an address of this host: pick one that `ip -brief addr` "
                                                   "shows (--bind, or CCB_MASTER_ADDR on rank 0's host)");
    throw_errno("cannot bind " + addr.to_string());
  }
  if (::listen(fd.get(), backlog) != 0) throw_errno("listen on " + addr.to_string());
  return fd;
}

static bool wait_fd(int fd, short events, Deadline deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) throw_errno("poll");
  }
}

static bool try_connect(const SockAddr& addr, Fd& fd, Deadline deadline) {
  fd = Fd(::socket(addr.family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd) throw_errno("socket");
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr.storage), addr.len) == 0) return true;
  if (errno != EINPROGRESS) return false;
  if (!wait_fd(fd.get(), POLLOUT, deadline)) {
    errno = ETIMEDOUT;
    return false;
  }
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
  errno = err;
  return err == 0;
}

Fd connect_to(const SockAddr& addr, Deadline deadline, bool retry_refused, const std::function<void()>& between) {
  auto pause = std::chrono::milliseconds(5);
  for (;;) {
    if (between) between();
    Fd fd;
    if (try_connect(addr, fd, deadline)) {
      set_nonblocking(fd.get(), false);
      return fd;
    }
    int err = errno;
    bool retry = retry_refused && (err == ECONNREFUSED || err == ECONNRESET || err == EAGAIN);
    if (!retry || Clock::now() + pause >= deadline) {
      ErrorContext ctx;
      ctx.sys_errno = err;
      throw Error(err == ETIMEDOUT || retry ? ErrorKind::kTimeout : ErrorKind::kSystem,
                  "cannot connect to " + addr.to_string(), ctx);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(200));
  }
}

void set_nonblocking(int fd, bool on) {
  int flags = fcntl(fd, F_GETFL, 0);
  if (flags < 0 || fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) != 0)
    throw_errno("fcntl(O_NONBLOCK)");
}

void set_nodelay(int fd) {
  int one = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) throw_errno("TCP_NODELAY");
}

void set_buffer_sizes(int fd, int bytes) {
  if (bytes <= 0) return;
  // A fixed size switches off autotuning; the kernel caps it at net.core.[rw]mem_max.
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes) != 0 ||
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes) != 0)
    throw_errno("SO_SNDBUF/SO_RCVBUF");
}

void set_congestion_control(int fd, const std::string& name) {
  if (name.empty()) return;
  if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name.data(), static_cast<socklen_t>(name.size())) != 0)
    throw Error(ErrorKind::kInvalidArgument,
                "--tcp-cc " + name + ": " + std::strerror(errno) +
                    " (the kernel offers: /proc/sys/net/ipv4/tcp_available_congestion_control; modprobe tcp_" + name + ")");
}

void check_congestion_control(const std::string& name) {
  if (name.empty()) return;
  Fd probe(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!probe) throw_errno("socket");
  set_congestion_control(probe.get(), name);
}

std::string default_congestion_control() {
  std::ifstream in("/proc/sys/net/ipv4/tcp_congestion_control");
  std::string name;
  in >> name;
  return name;
}

bool read_exact(int fd, void* buf, size_t n, Deadline deadline) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    if (!wait_fd(fd, POLLIN, deadline)) throw Error(ErrorKind::kTimeout, "timed out reading handshake");
    ssize_t r = ::recv(fd, p, n, MSG_DONTWAIT);
    if (r == 0) return false;
    if (r < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      if (errno == ECONNRESET) return false;
      throw_errno("recv");
    }
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

void write_exact(int fd, const void* buf, size_t n, Deadline deadline) {
  const auto* p = static_cast<const char*>(buf);
  while (n > 0) {
    if (!wait_fd(fd, POLLOUT, deadline)) throw Error(ErrorKind::kTimeout, "timed out writing handshake");
    ssize_t r = ::send(fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (r < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      throw_errno("send");
    }
    p += r;
    n -= static_cast<size_t>(r);
  }
}

}  // namespace ccb
