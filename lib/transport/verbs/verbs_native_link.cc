#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <sstream>

#include "core/error.h"
#include "net/socket_util.h"
#include "transport/verbs/verbs_handshake.h"
#include "transport/verbs/verbs_link.h"
#include "transport/verbs/verbs_wire.h"

namespace ccb::verbs {
namespace {

constexpr auto kHandshakeTimeout = std::chrono::seconds(10);

class NativeLink final : public PeerLink {
 public:
  NativeLink(std::vector<QpPtr> qps, Fd socket) : owned_(std::move(qps)), socket_(std::move(socket)) {
    for (auto& q : owned_) qps_.push_back(q.get());
  }
  const std::vector<ibv_qp*>& qps() const override { return qps_; }
  int liveness_fd() const override { return socket_.get(); }
  bool peer_left() override {
    char byte;
    ssize_t n = ::recv(socket_.get(), &byte, 1, MSG_DONTWAIT | MSG_PEEK);
    // EOF, a reset, or bytes (a peer never writes after the handshake): it is gone.
    return n >= 0 || (errno != EAGAIN && errno != EINTR);
  }

 private:
  std::vector<QpPtr> owned_;
  std::vector<ibv_qp*> qps_;
  Fd socket_;
};

struct Pending {  // a connection in the making: resources plus QPs
  LinkResources res;
  std::vector<QpPtr> qps;
};

class NativeLinkMaker final : public LinkMaker {
 public:
  NativeLinkMaker(const DeviceHandles& h, const std::string& advertise)
      : h_(h), listener_(listen_on(resolve_host(advertise, 0), 1024)), bound_(local_address_of(listener_.get())) {}

  std::string listen_address() override { return bound_.ip() + " " + std::to_string(bound_.port()); }
  std::string describe() const override { return "cm=native"; }

  LinkResources connect(int peer, const std::string& address, Deadline deadline) override {
    std::istringstream in(address);
    std::string ip;
    int port = 0;
    if (!(in >> ip >> port)) throw Error(ErrorKind::kProtocol, "malformed address '" + address + "'", ctx(peer));
    Fd fd;
    try {
      fd = connect_to(resolve_host(ip, port), deadline, true, [this, peer] { throw_if_aborted(h_, peer); });
    } catch (const Error& e) {
      throw Error(e.kind(), "cannot reach rank " + std::to_string(peer) + ": " + e.message(), ctx(peer));
    }
    Pending p = make_pending();
    Endpoint mine = endpoint(p, peer, std::random_device{}() & 0xffffff);
    write_exact(fd.get(), &mine, sizeof mine, deadline);
    Endpoint theirs{};
    if (!read_exact(fd.get(), &theirs, sizeof theirs, deadline))
      throw Error(ErrorKind::kPeerLost, "rank " + std::to_string(peer) + " closed the verbs handshake", ctx(peer));
    AnswerVerdict verdict = check_answer(theirs, peer, expect());
    if (!verdict.protocol_error.empty())
      throw Error(ErrorKind::kProtocol, "rank " + std::to_string(peer) + " answered the verbs handshake wrongly: " + verdict.protocol_error, ctx(peer));
    if (verdict.status != HandshakeStatus::kOk)
      throw Error(ErrorKind::kInvalidArgument, "rank " + std::to_string(peer) + " refused the connection: " + handshake_status_text(verdict.status), ctx(peer));
    theirs.psn = mine.psn;
    finish(p, theirs);
    const char ready = 1;  // our QPs are RTS: the acceptor may use its end now
    write_exact(fd.get(), &ready, 1, deadline);
    return into_link(std::move(p), std::move(fd));
  }

  LinkResources accept(int peer, Deadline deadline) override {
    while (!arrived_.count(peer)) {
      throw_if_aborted(h_, peer);
      if (Clock::now() >= deadline)
        throw Error(ErrorKind::kTimeout, "rank " + std::to_string(peer) + " never connected (is it running?)", ctx(peer));
      accept_one(deadline);
    }
    auto node = arrived_.extract(peer);
    return std::move(node.mapped());
  }

 private:
  ErrorContext ctx(int peer) const { return {h_.rank, peer, "verbs", "connect", 0, h_.port.short_name()}; }

  Pending make_pending() {
    Pending p{new_link_resources(h_), {}};
    for (int i = 0; i < h_.opts.qps; ++i) p.qps.push_back(create_rc_qp(h_.pd, p.res.cq->get(), h_.port, &p.res.max_inline));
    return p;
  }

  Endpoint endpoint(const Pending& p, int peer, uint32_t psn) const {
    Endpoint e{};
    e.magic = kHelloMagic, e.version = kWireVersion, e.nqps = static_cast<uint16_t>(p.qps.size());
    e.from_rank = h_.rank, e.to_rank = peer, e.token = h_.token;
    std::memcpy(e.gid, h_.port.gid.raw, sizeof e.gid);
    e.lid = h_.port.attr.lid, e.mtu = static_cast<uint8_t>(h_.port.attr.active_mtu), e.psn = psn;
    e.ctrl_addr = p.res.ctrl->addr(), e.ctrl_rkey = p.res.ctrl->rkey();
    for (size_t i = 0; i < p.qps.size(); ++i) e.qpn[i] = p.qps[i]->qp_num;
    return e;
  }

  void finish(Pending& p, const Endpoint& theirs) {
    RemoteQps remote = remote_qps_of(theirs);
    for (size_t i = 0; i < p.qps.size(); ++i) connect_rc_qp(p.qps[i].get(), h_.port, h_.opts, remote, i);
    p.res.peer_ctrl_addr = theirs.ctrl_addr;
    p.res.peer_ctrl_rkey = theirs.ctrl_rkey;
  }

  LinkResources into_link(Pending p, Fd fd) {
    p.res.link = std::make_unique<NativeLink>(std::move(p.qps), std::move(fd));
    return std::move(p.res);
  }

  HandshakeExpect expect() const { return {h_.rank, h_.token, h_.opts.qps}; }

  // Serves whichever peer arrives (see Transport::accept); strangers are dropped.
  void accept_one(Deadline deadline) {
    pollfd pfd{listener_.get(), POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (::poll(&pfd, 1, static_cast<int>(std::clamp<long long>(left, 0, 200))) <= 0) return;
    Fd fd(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!fd) return;
    auto hs_deadline = std::min(deadline, Clock::now() + kHandshakeTimeout);
    try {
      Endpoint theirs{};
      if (!read_exact(fd.get(), &theirs, sizeof theirs, hs_deadline)) return;
      HandshakeStatus st = check_hello(theirs, expect());
      if (st == HandshakeStatus::kOk && arrived_.count(theirs.from_rank)) st = HandshakeStatus::kDuplicate;
      Pending p;
      Endpoint mine{};
      if (st == HandshakeStatus::kOk) p = make_pending(), mine = endpoint(p, theirs.from_rank, theirs.psn);
      mine.magic = kHelloMagic, mine.status = static_cast<uint8_t>(st);
      if (st == HandshakeStatus::kOk) finish(p, theirs);
      write_exact(fd.get(), &mine, sizeof mine, hs_deadline);
      if (st != HandshakeStatus::kOk) {
        print_line_to_stderr("rank " + std::to_string(h_.rank) + " rejected a verbs connection: " + handshake_status_text(st));
        return;
      }
      char ready = 0;
      if (!read_exact(fd.get(), &ready, 1, hs_deadline)) return;
      arrived_[theirs.from_rank] = into_link(std::move(p), std::move(fd));
    } catch (const Error&) {
      // a stranger that stalls or drops mid-handshake is ignored, like a failed probe
    }
  }

  const DeviceHandles& h_;
  Fd listener_;
  SockAddr bound_;
  std::map<int, LinkResources> arrived_;
};

}  // namespace

void throw_if_aborted(const DeviceHandles& h, int peer) {
  if (h.abort && h.abort->raised())
    throw Error(ErrorKind::kAborted, "aborted: " + h.abort->reason(), {h.rank, peer, "verbs", "connect", 0, ""});
}

LinkResources new_link_resources(const DeviceHandles& h) {
  LinkResources r;
  r.cq = std::make_unique<CompletionQueue>(h.ctx, cq_entries_for(h.opts.qps), h.channel);
  r.ctrl = std::make_unique<ControlBlock>(h.pd, h.port.device);
  r.max_wr_bytes = static_cast<uint32_t>(std::min<uint64_t>(h.port.attr.max_msg_sz, 8u << 20));
  return r;
}

std::unique_ptr<LinkMaker> make_native_link_maker(const DeviceHandles& h, const std::string& advertise) {
  return std::make_unique<NativeLinkMaker>(h, advertise);
}

}  // namespace ccb::verbs
