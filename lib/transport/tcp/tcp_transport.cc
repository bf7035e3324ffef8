#include "transport/tcp/tcp_transport.h"

#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <sstream>

#include "core/error.h"
#include "transport/tcp/netdev_info.h"
#include "transport/tcp/tcp_connection.h"
#include "transport/tcp/tcp_wire.h"

namespace ccb::tcp {
namespace {

// A handshake that has not finished in this time is a stranger or a stalled peer.
constexpr auto kHandshakeTimeout = std::chrono::seconds(10);

void check_streams(int streams) {
  if (streams < 1 || streams > 64) throw_invalid("--tcp-streams must be between 1 and 64, got " + std::to_string(streams));
}

SockAddr choose_bind_address(const TcpOptions& o, const std::string& advertise) {
  if (!o.iface.empty() && !o.address.empty())
    throw_invalid("--iface " + o.iface + " and --bind " + o.address +
                  " both choose the data address: give one of them");
  if (!o.iface.empty()) {
    SockAddr addr = interface_address(o.iface, o.ipv6);
    check_interface_up(o.iface);
    return addr;
  }
  return resolve_host(o.address.empty() ? advertise : o.address, 0);
}

std::string status_text(HelloStatus s) {
  switch (s) {
    case HelloStatus::kOk: return "ok";
    case HelloStatus::kBadToken: return "job token mismatch (every rank needs the same CCB_TOKEN)";
    case HelloStatus::kWrongRank: return "it is not the rank we meant to reach (stale address in the store?)";
    case HelloStatus::kBadStreams: return "--tcp-streams differs between ranks";
    case HelloStatus::kBadVersion: return "ccbench versions differ between ranks";
  }
  return "unknown status";
}

}  // namespace

void check_tcp_options(const TcpOptions& o) {
  check_streams(o.streams);
  SockAddr probe = choose_bind_address(o, "127.0.0.1");
  listen_on(probe, 1);  // an address this host does not have fails here, naming it
  check_congestion_control(o.congestion_control);
}

TcpTransport::TcpTransport(int rank, uint64_t token, TcpOptions opts, const std::string& advertise, std::string name)
    : rank_(rank), token_(token), opts_(std::move(opts)), name_(std::move(name)) {
  check_streams(opts_.streams);
  listener_ = listen_on(choose_bind_address(opts_, advertise), 1024);
  bound_ = local_address_of(listener_.get());
  const std::string netdev = opts_.iface.empty() ? interface_holding(bound_) : opts_.iface;
  device_ = netdev.empty() ? bound_.ip() : netdev + " " + bound_.ip();
  set_congestion_control(listener_.get(), opts_.congestion_control);  // a bad name fails here, not at connect
  epoll_ = abort_.epoll_watching_this(context(-1, "setup"));
}

TcpTransport::~TcpTransport() = default;

ErrorContext TcpTransport::context(int peer, const char* phase) const {
  return ErrorContext{rank_, peer, name_, phase, 0, device_};
}

std::string TcpTransport::listen_address() { return bound_.ip() + " " + std::to_string(bound_.port()); }

std::string TcpTransport::describe() const {
  std::ostringstream s;
  s << name_ << " streams=" << opts_.streams << " min_chunk=" << opts_.min_chunk
    << " sockbuf=" << (opts_.socket_buffer ? std::to_string(opts_.socket_buffer) : "auto")
    << " cc=" << (opts_.congestion_control.empty() ? default_congestion_control() : opts_.congestion_control)
    << " addr=" << bound_.ip();
  if (!opts_.iface.empty()) s << " iface=" << opts_.iface;
  return s.str();
}

LinkInfo TcpTransport::link() const { return netdev_link(opts_.iface.empty() ? interface_holding(bound_) : opts_.iface); }

void TcpTransport::prepare_data_socket(int fd) const {
  set_nodelay(fd);
  set_buffer_sizes(fd, opts_.socket_buffer);
  set_congestion_control(fd, opts_.congestion_control);
  set_nonblocking(fd, true);
}

ConnectionPtr TcpTransport::connect(int peer, const std::string& address, Deadline deadline) {
  std::istringstream in(address);
  std::string ip;
  int port = 0;
  if (!(in >> ip >> port)) throw Error(ErrorKind::kProtocol, "malformed address '" + address + "'", context(peer, "connect"));
  SockAddr addr = resolve_host(ip, port);
  std::vector<Fd> sockets;
  for (int s = 0; s < opts_.streams; ++s) {
    ErrorContext ctx = context(peer, "connect");
    Fd fd;
    try {
      // An abort (the job failed elsewhere) ends the wait for a peer to listen.
      fd = connect_to(addr, deadline, true, [this] { rethrow_failure(); });
      Hello h{kHelloMagic, kWireVersion, static_cast<uint16_t>(s), static_cast<uint16_t>(opts_.streams), 0, rank_, peer, 0, token_};
      write_exact(fd.get(), &h, sizeof h, deadline);
      HelloAck ack{};
      if (!read_exact(fd.get(), &ack, sizeof ack, deadline) || ack.magic != kHelloMagic)
        throw Error(ErrorKind::kPeerLost, "rank " + std::to_string(peer) + " at " + addr.to_string() +
                                              " closed the handshake", ctx);
      auto st = static_cast<HelloStatus>(ack.status);
      if (st != HelloStatus::kOk)
        throw Error(ErrorKind::kInvalidArgument, "rank " + std::to_string(peer) + " refused the connection: " + status_text(st), ctx);
    } catch (const Error& e) {
      if (e.context().rank >= 0) throw;
      ctx.sys_errno = e.context().sys_errno;
      throw Error(e.kind(), e.message(), ctx);
    }
    prepare_data_socket(fd.get());
    sockets.push_back(std::move(fd));
  }
  return std::make_unique<TcpConnection>(*this, peer, std::move(sockets), opts_);
}

ConnectionPtr TcpTransport::accept(int peer, Deadline deadline) {
  while (arriving_[peer].size() < static_cast<size_t>(opts_.streams)) {
    if (abort_.raised()) rethrow_failure();
    if (Clock::now() >= deadline)
      throw Error(ErrorKind::kTimeout, "rank " + std::to_string(peer) + " never connected (is it running?)",
                  context(peer, "accept"));
    accept_one(deadline);
  }
  std::vector<Fd> sockets;
  for (auto& [index, fd] : arriving_[peer]) {
    prepare_data_socket(fd.get());
    sockets.push_back(std::move(fd));
  }
  arriving_.erase(peer);
  return std::make_unique<TcpConnection>(*this, peer, std::move(sockets), opts_);
}

void TcpTransport::accept_one(Deadline deadline) {
  pollfd p{listener_.get(), POLLIN, 0};
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (::poll(&p, 1, static_cast<int>(std::clamp<long long>(left, 0, 200))) <= 0) return;
  Fd fd(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (!fd && (errno == EMFILE || errno == ENFILE)) throw_errno("accept a peer's connection", context(-1, "accept"));
  if (!fd) return;
  // Every arrival is answered now, whichever peer we wait for (see Transport::accept).
  Hello h{};
  HelloStatus st = HelloStatus::kOk;
  auto hs_deadline = std::min(deadline, Clock::now() + kHandshakeTimeout);
  try {
    if (!read_exact(fd.get(), &h, sizeof h, hs_deadline)) return;
  } catch (const Error&) {
    return;  // a stranger that sends nothing is dropped
  }
  if (h.magic != kHelloMagic || h.version != kWireVersion) st = HelloStatus::kBadVersion;
  else if (h.token != token_) st = HelloStatus::kBadToken;
  else if (h.to_rank != rank_ || h.from_rank < 0) st = HelloStatus::kWrongRank;
  else if (h.nstreams != opts_.streams || h.stream >= h.nstreams) st = HelloStatus::kBadStreams;
  HelloAck ack{kHelloMagic, static_cast<uint32_t>(st)};
  try {
    write_exact(fd.get(), &ack, sizeof ack, hs_deadline);
  } catch (const Error&) {
    return;
  }
  if (st != HelloStatus::kOk) {
    print_line_to_stderr("rank " + std::to_string(rank_) + " rejected a connection: " + status_text(st));
    return;
  }
  arriving_[h.from_rank][h.stream] = std::move(fd);
}

MemoryRegionPtr TcpTransport::register_memory(void* base, size_t bytes) {
  return std::make_unique<MemoryRegion>(base, bytes);
}

void TcpTransport::attach(TcpConnection& c) {
  connections_.push_back(&c);
  for (auto& s : c.streams()) {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLET | EPOLLRDHUP;
    ev.data.ptr = s.get();
    if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, s->fd(), &ev) != 0) throw_errno("epoll_ctl", context(c.peer(), "connect"));
  }
}

void TcpTransport::detach(TcpConnection& c) {
  for (auto& s : c.streams()) epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, s->fd(), nullptr);
  connections_.erase(std::remove(connections_.begin(), connections_.end(), &c), connections_.end());
}

void TcpTransport::poll_events(int timeout_ms) {
  epoll_event events[64];
  int n = epoll_wait(epoll_.get(), events, 64, timeout_ms);
  for (int i = 0; i < n; ++i) {
    auto* stream = static_cast<TcpStream*>(events[i].data.ptr);
    if (!stream) continue;  // the abort eventfd
    uint32_t e = events[i].events;
    stream->mark_ready(e & (EPOLLIN | EPOLLHUP | EPOLLERR | EPOLLRDHUP), e & (EPOLLOUT | EPOLLERR));
  }
}

void TcpTransport::progress() {
  if (abort_.raised()) rethrow_failure();
  poll_events(0);
  for (auto* c : connections_) c->service();
}

void TcpTransport::wait_for_progress(std::chrono::microseconds timeout) {
  int ms = static_cast<int>(std::max<long long>(1, (timeout.count() + 999) / 1000));
  poll_events(ms);
}

void TcpTransport::abort(const std::string& why) { abort_.raise(why); }

void TcpTransport::record_failure(std::exception_ptr e) {
  if (!failure_) failure_ = std::move(e);
}

void TcpTransport::rethrow_failure() const {
  if (abort_.raised()) throw Error(ErrorKind::kAborted, "aborted: " + abort_.reason(), context(-1, "wait"));
  if (failure_) std::rethrow_exception(failure_);
}

bool TcpTransport::hold_unexpected(size_t bytes) {
  if (bytes > opts_.max_unexpected - std::min(opts_.max_unexpected, unexpected_bytes_)) return false;
  unexpected_bytes_ += bytes;
  return true;
}

}  // namespace ccb::tcp
