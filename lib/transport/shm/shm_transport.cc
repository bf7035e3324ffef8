#include "transport/shm/shm_transport.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <random>

#include "core/error.h"
#include "net/socket_util.h"
#include "transport/shm/shm_handshake.h"

namespace ccb::shm {
namespace {

// A handshake that has not finished in this time is a stranger or a stalled peer.
constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
// How often progress() looks at the sockets while it has no reason to sleep.
constexpr unsigned kSocketPollEvery = 1024;

uint64_t random_probe() {
  std::random_device rd;
  return (uint64_t{rd()} << 32 | rd()) | 1;
}

}  // namespace

ShmTransport::ShmTransport(int rank, uint64_t token)
    : rank_(rank), token_(token), host_(host_key()), listener_(listen_abstract(socket_name_)), probe_(random_probe()) {
  epoll_ = abort_.epoll_watching_this(context(-1, "setup"));
}

ShmTransport::~ShmTransport() = default;

ErrorContext ShmTransport::context(int peer, const char* phase) const { return ErrorContext{rank_, peer, "shm", phase, 0, host_}; }

std::string ShmTransport::listen_address() { return format_address({host_, getpid(), socket_name_}); }

std::string ShmTransport::describe() const {
  // Before the first peer (connections are made on first use) the kernel's rules tell;
  // after, what every pair proved.
  bool single = connections_.empty() ? single_copy_expected()
                                     : std::all_of(connections_.begin(), connections_.end(),
                                                   [](const ShmConnection* c) { return c->single_copy_both_ways(); });
  return "shm slots=" + std::to_string(kSlots) + "x" + std::to_string(kSlotBytes >> 10) + "KiB single_copy=" +
         (single ? ">=" + std::to_string(kSingleCopyBytes >> 10) + "KiB" : std::string("off"));
}

LinkInfo ShmTransport::link() const { return LinkInfo{"shm", "memfd", "", 0, "", 1}; }

MemoryRegionPtr ShmTransport::register_memory(void* base, size_t bytes) { return std::make_unique<MemoryRegion>(base, bytes); }

ConnectionPtr ShmTransport::connect(int peer, const std::string& address, Deadline deadline) {
  ShmAddress a = parse_address(address);
  if (a.host != host_)
    throw Error(ErrorKind::kInvalidArgument,
                "--transport shm joins ranks of one host, but rank " + std::to_string(peer) + " runs on " + a.host + " and rank " +
                    std::to_string(rank_) + " on " + host_ + ": use --transport tcp (or verbs) across hosts",
                context(peer, "connect"));
  ShmPeer p;
  p.rank = peer;
  p.side = 1;
  p.socket = connect_abstract(a.name, deadline);
  PeerCredentials cred = peer_credentials(p.socket.get());
  if (cred.pid != a.pid)
    throw Error(ErrorKind::kProtocol,
                "the shm socket of rank " + std::to_string(peer) + " is held by pid " + std::to_string(cred.pid) + ", not by pid " +
                    std::to_string(a.pid) + " that the store named (a stale address, or a stranger)",
                context(peer, "connect"));
  p.pid = cred.pid;
  Hello h{kHelloMagic, kWireVersion, token_, rank_, peer, reinterpret_cast<uint64_t>(&probe_), probe_};
  write_exact(p.socket.get(), &h, sizeof h, deadline);
  Ack ack{};
  Fd memfd;
  if (!recv_with_fd(p.socket.get(), &ack, sizeof ack, memfd, deadline) || ack.magic != kHelloMagic)
    throw Error(ErrorKind::kPeerLost, "rank " + std::to_string(peer) + " closed the shm handshake", context(peer, "connect"));
  if (auto st = static_cast<HelloStatus>(ack.status); st != HelloStatus::kOk)
    throw Error(ErrorKind::kInvalidArgument, "rank " + std::to_string(peer) + " refused the connection: " + status_text(st),
                context(peer, "connect"));
  if (!memfd) throw Error(ErrorKind::kProtocol, "rank " + std::to_string(peer) + " sent no shm segment", context(peer, "connect"));
  p.segment = adopt_segment(memfd.get(), rank_, peer);
  p.peer_can_pull = ack.can_pull != 0;
  p.we_can_pull = can_read_memory_of(p.pid, ack.probe_address, ack.probe_value);
  Confirm c{kHelloMagic, p.we_can_pull ? 1u : 0u};
  write_exact(p.socket.get(), &c, sizeof c, deadline);
  set_nonblocking(p.socket.get(), true);
  return std::make_unique<ShmConnection>(*this, std::move(p));
}

ConnectionPtr ShmTransport::accept(int peer, Deadline deadline) {
  while (!arriving_.count(peer)) {
    if (abort_.raised()) rethrow_failure();
    if (Clock::now() >= deadline)
      throw Error(ErrorKind::kTimeout, "rank " + std::to_string(peer) + " never connected (is it running, on this host?)",
                  context(peer, "accept"));
    accept_one(deadline);
  }
  ShmPeer p = std::move(arriving_[peer]);
  arriving_.erase(peer);
  return std::make_unique<ShmConnection>(*this, std::move(p));
}

void ShmTransport::accept_one(Deadline deadline) {
  pollfd p{listener_.get(), POLLIN, 0};
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (::poll(&p, 1, static_cast<int>(std::clamp<long long>(left, 0, 200))) <= 0) return;
  Fd fd(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (!fd && (errno == EMFILE || errno == ENFILE)) throw_errno("accept a peer's shm connection", context(-1, "accept"));
  if (!fd) return;
  try {
    answer_hello(std::move(fd), std::min(deadline, Clock::now() + kHandshakeTimeout));
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kTimeout && e.kind() != ErrorKind::kPeerLost && e.kind() != ErrorKind::kProtocol) throw;
    // A stranger that stalls, hangs up or talks nonsense is dropped; the job goes on.
  }
}

// Every arrival is answered now, whichever peer we wait for (see Transport::accept).
void ShmTransport::answer_hello(Fd socket, Deadline deadline) {
  const PeerCredentials cred = peer_credentials(socket.get());
  Hello h{};
  if (!read_exact(socket.get(), &h, sizeof h, deadline)) return;
  const HelloStatus st = judge_hello(h, token_, rank_, cred.uid, geteuid());
  if (st != HelloStatus::kOk) {
    Ack no{kHelloMagic, static_cast<uint32_t>(st), 0, 0, 0, 0};
    write_exact(socket.get(), &no, sizeof no, deadline);
    print_line_to_stderr("rank " + std::to_string(rank_) + " rejected an shm connection from pid " + std::to_string(cred.pid) +
                         " (uid " + std::to_string(cred.uid) + "): " + status_text(st));
    return;
  }
  ShmPeer p;
  p.rank = h.from_rank;
  p.pid = cred.pid;
  p.side = 0;
  CreatedSegment seg = create_segment(rank_, p.rank);
  p.we_can_pull = can_read_memory_of(cred.pid, h.probe_address, h.probe_value);
  Ack ack{kHelloMagic, 0, reinterpret_cast<uint64_t>(&probe_), probe_, p.we_can_pull ? 1u : 0u, 0};
  send_with_fd(socket.get(), &ack, sizeof ack, seg.fd.get());
  Confirm c{};
  if (!read_exact(socket.get(), &c, sizeof c, deadline) || c.magic != kHelloMagic)
    throw Error(ErrorKind::kPeerLost, "rank " + std::to_string(p.rank) + " left the shm handshake", context(p.rank, "accept"));
  p.peer_can_pull = c.can_pull != 0;
  p.segment = std::move(seg.map);
  p.socket = std::move(socket);
  set_nonblocking(p.socket.get(), true);
  arriving_[p.rank] = std::move(p);
}

void ShmTransport::attach(ShmConnection& c) {
  connections_.push_back(&c);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP;
  ev.data.ptr = &c;
  if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, c.socket(), &ev) != 0) throw_errno("epoll_ctl", context(c.peer(), "connect"));
}

void ShmTransport::detach(ShmConnection& c) {
  epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, c.socket(), nullptr);
  connections_.erase(std::remove(connections_.begin(), connections_.end(), &c), connections_.end());
}

void ShmTransport::poll_sockets(int timeout_ms) {
  epoll_event events[64];
  int n = epoll_wait(epoll_.get(), events, 64, timeout_ms);
  for (int i = 0; i < n; ++i)
    if (auto* c = static_cast<ShmConnection*>(events[i].data.ptr)) c->on_socket_event();
}

void ShmTransport::progress() {
  if (abort_.raised()) rethrow_failure();
  if (++progress_calls_ % kSocketPollEvery == 0) poll_sockets(0);
  for (auto* c : connections_) c->service();
}

// Sleeps only once every peer knows to ring our socket: we say we sleep, then look once
// more (the peer publishes, then looks whether we sleep: one of us sees the other).
void ShmTransport::wait_for_progress(std::chrono::microseconds timeout) {
  for (auto* c : connections_) c->announce_sleep(true);
  const bool work = std::any_of(connections_.begin(), connections_.end(), [](const ShmConnection* c) { return c->has_work(); });
  const int ms = work ? 0 : static_cast<int>(std::max<long long>(1, (timeout.count() + 999) / 1000));
  poll_sockets(ms);
  for (auto* c : connections_) c->announce_sleep(false);
}

void ShmTransport::abort(const std::string& why) { abort_.raise(why); }

void ShmTransport::record_failure(std::exception_ptr e) {
  if (!failure_) failure_ = std::move(e);
}

void ShmTransport::rethrow_failure() const {
  if (abort_.raised()) throw Error(ErrorKind::kAborted, "aborted: " + abort_.reason(), context(-1, "wait"));
  if (failure_) std::rethrow_exception(failure_);
}

}  // namespace ccb::shm
