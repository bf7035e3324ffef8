#include "transport/shm/shm_handshake.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "net/socket_util.h"

namespace ccb::shm {
namespace {

sockaddr_un abstract_address(const std::string& name, socklen_t& len) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (name.size() + 1 > sizeof a.sun_path) throw Error(ErrorKind::kProtocol, "shm socket name too long: " + name);
  std::memcpy(a.sun_path + 1, name.data(), name.size());  // sun_path[0] == 0: abstract
  len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  return a;
}

}  // namespace

HelloStatus judge_hello(const Hello& h, uint64_t token, int my_rank, uid_t peer_uid, uid_t my_uid) {
  if (h.magic != kHelloMagic || h.version != kWireVersion) return HelloStatus::kBadVersion;
  if (peer_uid != my_uid) return HelloStatus::kWrongUser;
  if (h.token != token) return HelloStatus::kBadToken;
  if (h.to_rank != my_rank || h.from_rank < 0 || h.from_rank == my_rank) return HelloStatus::kWrongRank;
  return HelloStatus::kOk;
}

std::string status_text(HelloStatus s) {
  switch (s) {
    case HelloStatus::kOk: return "ok";
    case HelloStatus::kBadToken: return "job token mismatch (every rank needs the same CCB_TOKEN)";
    case HelloStatus::kWrongRank: return "it is not the rank we meant to reach (stale address in the store?)";
    case HelloStatus::kBadVersion: return "ccbench versions differ between ranks";
    case HelloStatus::kWrongUser: return "the process belongs to another user";
  }
  return "unknown status";
}

std::string format_address(const ShmAddress& a) { return a.host + " " + std::to_string(a.pid) + " " + a.name; }

ShmAddress parse_address(const std::string& text) {
  std::istringstream in(text);
  ShmAddress a;
  std::string rest;
  if (!(in >> a.host >> a.pid >> a.name) || a.pid <= 0 || (in >> rest))
    throw Error(ErrorKind::kProtocol, "malformed shm address '" + text + "'");
  return a;
}

Fd listen_abstract(std::string& name) {
  std::random_device rd;
  for (int attempt = 0; attempt < 16; ++attempt) {
    // A name somebody else holds (a stranger squatting) is skipped, never shared.
    std::ostringstream s;
    s << "ccbench-shm-" << std::hex << rd() << rd() << rd();
    Fd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) throw_errno("socket(AF_UNIX) for the shm transport");
    socklen_t len = 0;
    sockaddr_un a = abstract_address(s.str(), len);
    if (bind(fd.get(), reinterpret_cast<sockaddr*>(&a), len) != 0) {
      if (errno == EADDRINUSE) continue;
      throw_errno("bind the shm transport's socket");
    }
    if (listen(fd.get(), 256) != 0) throw_errno("listen on the shm transport's socket");
    name = s.str();
    return fd;
  }
  throw Error(ErrorKind::kSystem, "no free name for the shm transport's socket after 16 tries");
}

Fd connect_abstract(const std::string& name, Deadline deadline) {
  socklen_t len = 0;
  sockaddr_un a = abstract_address(name, len);
  while (true) {
    Fd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) throw_errno("socket(AF_UNIX) for the shm transport");
    if (connect(fd.get(), reinterpret_cast<sockaddr*>(&a), len) == 0) return fd;
    // The listener exists before its name reaches the store, so a refusal is a backlog
    // full for a moment, or a peer gone: retry until the deadline says which.
    if ((errno != ECONNREFUSED && errno != EAGAIN) || Clock::now() >= deadline) throw_errno("connect to the shm socket " + name);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

PeerCredentials peer_credentials(int fd) {
  ucred c{};
  socklen_t len = sizeof c;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) != 0) throw_errno("SO_PEERCRED on the shm socket");
  return {c.pid, c.uid};
}

namespace {

// One buffer and room for one fd: the message both ends of the handshake pass.
struct FdMessage {
  iovec iov;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr m{};
  FdMessage(const void* buf, size_t n) : iov{const_cast<void*>(buf), n} {
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
  }
  FdMessage(const FdMessage&) = delete;  // m points into this object
  FdMessage& operator=(const FdMessage&) = delete;
};

}  // namespace

void send_with_fd(int socket, const void* buf, size_t n, int fd_to_pass) {
  FdMessage msg(buf, n);
  msghdr& m = msg.m;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd_to_pass, sizeof(int));
  // A Unix stream socket takes a message this small whole, or not at all.
  if (sendmsg(socket, &m, MSG_NOSIGNAL) != static_cast<ssize_t>(n)) throw_errno("send the shm segment to the peer");
}

bool recv_with_fd(int socket, void* buf, size_t n, Fd& received, Deadline deadline) {
  pollfd p{socket, POLLIN, 0};
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (::poll(&p, 1, static_cast<int>(std::max<long long>(left, 0))) <= 0)
    throw Error(ErrorKind::kTimeout, "timed out waiting for the peer's shm segment");
  FdMessage msg(buf, n);
  msghdr& m = msg.m;
  ssize_t r = recvmsg(socket, &m, MSG_CMSG_CLOEXEC | MSG_WAITALL);
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int))) {
    int fd = -1;
    std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
    received = Fd(fd);
  }
  if (r <= 0) return false;
  if (static_cast<size_t>(r) != n || (m.msg_flags & MSG_CTRUNC)) throw Error(ErrorKind::kProtocol, "a short or truncated shm handshake");
  return true;
}

bool can_read_memory_of(pid_t pid, uint64_t address, uint64_t value) {
  uint64_t seen = 0;
  iovec local{&seen, sizeof seen};
  iovec remote{reinterpret_cast<void*>(address), sizeof seen};
  return process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(sizeof seen) && seen == value;
}

bool single_copy_expected() {
  std::ifstream yama("/proc/sys/kernel/yama/ptrace_scope");
  int scope = 0;
  if (!(yama >> scope)) return true;  // no Yama: same uid is enough
  if (scope == 0) return true;
  return scope < 3 && geteuid() == 0;  // 1 and 2 let CAP_SYS_PTRACE through; 3 nobody
}

}  // namespace ccb::shm
