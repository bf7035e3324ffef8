#include "transport/verbs/verbs_rdmacm.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>

#include <cstring>
#include <sstream>

#include "core/error.h"
#include "net/socket_util.h"
#include "transport/verbs/verbs_handshake.h"
#include "transport/verbs/verbs_wire.h"

namespace ccb::verbs {
namespace {

constexpr int kResolveMs = 5000;

class CmLink final : public PeerLink {
 public:
  CmLink(CmChannelPtr channel, std::vector<CmId> ids) : channel_(std::move(channel)), ids_(std::move(ids)) {
    for (auto& id : ids_) qps_.push_back(id.get()->qp);
  }
  const std::vector<ibv_qp*>& qps() const override { return qps_; }
  int liveness_fd() const override { return channel_->fd; }
  bool peer_left() override {
    rdma_cm_event* ev = nullptr;
    if (rdma_get_cm_event(channel_.get(), &ev) != 0) return false;
    rdma_ack_cm_event(ev);
    return true;  // after ESTABLISHED, every event (DISCONNECTED, DEVICE_REMOVAL...) ends the link
  }

 private:
  CmChannelPtr channel_;  // destroyed after the ids that use it
  std::vector<CmId> ids_;
  std::vector<ibv_qp*> qps_;
};

CmChannelPtr new_channel() {
  CmChannelPtr c(rdma_create_event_channel());
  if (!c) throw_errno("rdma_create_event_channel (is rdma_ucm loaded?)", {-1, -1, "verbs", "setup", errno, ""});
  fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
  return c;
}

CmId new_id(rdma_event_channel* ch) {
  rdma_cm_id* raw = nullptr;
  if (rdma_create_id(ch, &raw, nullptr, RDMA_PS_TCP) != 0) throw_errno("rdma_create_id", {-1, -1, "verbs", "setup", errno, ""});
  return CmId(raw);
}

void create_qp(rdma_cm_id* id, const DeviceHandles& h, LinkResources& res) {
  ibv_qp_init_attr attr = rc_qp_attr(res.cq->get());
  if (rdma_create_qp(id, h.pd, &attr) != 0) throw_errno("rdma_create_qp", {h.rank, -1, "verbs", "connect", errno, ""});
  res.max_inline = attr.cap.max_inline_data;
  post_receives(id->qp, kRecvQueueDepth);
}

rdma_conn_param conn_param(const VerbsOptions& o, const void* data, size_t len) {
  rdma_conn_param p{};
  p.private_data = data;
  p.private_data_len = static_cast<uint8_t>(len);
  p.responder_resources = 1;
  p.initiator_depth = 1;
  p.retry_count = static_cast<uint8_t>(o.retry_count);
  p.rnr_retry_count = static_cast<uint8_t>(o.rnr_retry);
  return p;
}

void migrate(std::vector<CmId>& ids, rdma_event_channel* to) {
  for (auto& id : ids)
    if (rdma_migrate_id(id.get(), to) != 0) throw_errno("rdma_migrate_id", {-1, -1, "verbs", "connect", errno, ""});
}

}  // namespace

CmId::~CmId() {
  if (!id_) return;
  if (id_->qp) rdma_destroy_qp(id_);
  rdma_destroy_id(id_);
}

CmId& CmId::operator=(CmId&& o) noexcept {
  if (this != &o) {
    CmId dead(std::exchange(id_, std::exchange(o.id_, nullptr)));
  }
  return *this;
}

struct RdmaCmLinkMaker::Arrival {
  LinkResources res;
  std::vector<CmId> ids;
  int established = 0;
};

RdmaCmLinkMaker::RdmaCmLinkMaker(const DeviceHandles& h, const std::string& advertise) : h_(h) {
  (void)advertise;  // rdma_cm addresses the device's own IP, never the bootstrap's
  open_device(h.opts);  // the same one-line error as native mode when there is none
  channel_ = new_channel();
  int n = 0;
  ibv_context** list = rdma_get_devices(&n);
  std::string ip;
  for (int i = 0; list && i < n && ip.empty(); ++i) {
    if (!h.opts.device.empty() && h.opts.device != ibv_get_device_name(list[i]->device)) continue;
    try {
      PortChoice port = choose_port(list[i], h.opts);
      if (!gid_is_ipv4_mapped(port.gid))
        throw_invalid("--ib-cm rdmacm needs an IPv4 address on " + port.device + ", but its GID " + port.describe() +
                      " has none: give --gid-index of an IPv4-mapped GID, or use --ib-cm native");
      char text[INET_ADDRSTRLEN] = {};
      inet_ntop(AF_INET, port.gid.raw + 12, text, sizeof text);
      ip = text;
    } catch (const Error&) {
      if (!h.opts.device.empty()) throw;
    }
  }
  if (list) rdma_free_devices(list);
  if (ip.empty()) throw_invalid("no RDMA device with an IPv4 GID for --ib-cm rdmacm");
  listen_ = new_id(channel_.get());
  SockAddr addr = resolve_host(ip, 0);
  if (rdma_bind_addr(listen_.get(), reinterpret_cast<sockaddr*>(&addr.storage)) != 0 || !listen_.get()->verbs)
    throw_errno("rdma_bind_addr(" + ip + ")", {h.rank, -1, "verbs", "setup", errno, ""});
  if (rdma_listen(listen_.get(), 256) != 0) throw_errno("rdma_listen", {h.rank, -1, "verbs", "setup", errno, ""});
  address_ = ip + " " + std::to_string(ntohs(rdma_get_src_port(listen_.get())));
}

RdmaCmLinkMaker::~RdmaCmLinkMaker() = default;

void RdmaCmLinkMaker::set_options(rdma_cm_id* id) const {
  uint8_t timeout = static_cast<uint8_t>(h_.opts.timeout), tos = static_cast<uint8_t>(h_.opts.traffic_class);
  rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &timeout, sizeof timeout);
  if (tos) rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof tos);
}

rdma_cm_event* RdmaCmLinkMaker::next_event(Deadline deadline, int peer) {
  while (true) {
    rdma_cm_event* ev = nullptr;
    if (rdma_get_cm_event(channel_.get(), &ev) == 0) return ev;
    if (errno != EAGAIN) throw_errno("rdma_get_cm_event", ctx(peer));
    throw_if_aborted(h_, peer);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0)
      throw Error(ErrorKind::kTimeout, "rdma_cm connection with rank " + std::to_string(peer) + " timed out (is it running?)", ctx(peer));
    pollfd p{channel_->fd, POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 200)));
  }
}

LinkResources RdmaCmLinkMaker::connect(int peer, const std::string& address, Deadline deadline) {
  std::istringstream in(address);
  std::string ip;
  int port = 0;
  if (!(in >> ip >> port)) throw Error(ErrorKind::kProtocol, "malformed address '" + address + "'", ctx(peer));
  SockAddr dst = resolve_host(ip, port), src = resolve_host(address_.substr(0, address_.find(' ')), 0);
  LinkResources res = new_link_resources(h_);
  std::vector<CmId> ids;
  // One step of the id's state machine: do `action`, then expect event `want`.
  auto step = [&](rdma_cm_id* id, rdma_cm_event_type want, const char* what, auto action) {
    if (action() != 0) throw_errno(std::string(what) + " to rank " + std::to_string(peer), ctx(peer));
    while (true) {
      rdma_cm_event* ev = next_event(deadline, peer);
      if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) { on_connect_request(ev); continue; }
      if (ev->id != id) { on_passive_event(ev); continue; }
      auto got = ev->event;
      std::optional<CmAnswer> answer = parse_cm_answer(ev->param.conn.private_data, ev->param.conn.private_data_len);
      rdma_ack_cm_event(ev);
      if (got == want) return answer.value_or(CmAnswer{});
      std::string why = got == RDMA_CM_EVENT_REJECTED && answer && answer->magic == kHelloMagic
                            ? "it refused: " + handshake_status_text(static_cast<HandshakeStatus>(answer->status))
                            : std::string(rdma_event_str(got));
      throw Error(ErrorKind::kPeerLost, std::string(what) + " to rank " + std::to_string(peer) + " at " + ip + " failed: " + why, ctx(peer));
    }
  };
  for (int i = 0; i < h_.opts.qps; ++i) {
    ids.push_back(new_id(channel_.get()));
    rdma_cm_id* id = ids.back().get();
    set_options(id);
    step(id, RDMA_CM_EVENT_ADDR_RESOLVED, "rdma_resolve_addr", [&] {
      return rdma_resolve_addr(id, reinterpret_cast<sockaddr*>(&src.storage), reinterpret_cast<sockaddr*>(&dst.storage), kResolveMs);
    });
    step(id, RDMA_CM_EVENT_ROUTE_RESOLVED, "rdma_resolve_route", [&] { return rdma_resolve_route(id, kResolveMs); });
    create_qp(id, h_, res);
    CmHello hello{kHelloMagic, kWireVersion, static_cast<uint8_t>(i), static_cast<uint8_t>(h_.opts.qps), h_.rank, peer,
                  h_.token, res.ctrl->addr(), res.ctrl->rkey(), 0};
    rdma_conn_param p = conn_param(h_.opts, &hello, sizeof hello);
    CmAnswer a = step(id, RDMA_CM_EVENT_ESTABLISHED, "rdma_connect", [&] { return rdma_connect(id, &p); });
    if (i == 0) res.peer_ctrl_addr = a.ctrl_addr, res.peer_ctrl_rkey = a.ctrl_rkey;
  }
  auto own = new_channel();
  migrate(ids, own.get());
  res.link = std::make_unique<CmLink>(std::move(own), std::move(ids));
  return res;
}

void RdmaCmLinkMaker::on_connect_request(rdma_cm_event* ev) {
  std::optional<CmHello> parsed = parse_cm_hello(ev->param.conn.private_data, ev->param.conn.private_data_len);
  rdma_cm_id* id = ev->id;
  rdma_ack_cm_event(ev);
  HandshakeStatus st = check_cm_hello(parsed, {h_.rank, h_.token, h_.opts.qps});
  if (st == HandshakeStatus::kOk && arrivals_.count(parsed->from_rank) && arrivals_[parsed->from_rank]->ids[parsed->qp_index].get())
    st = HandshakeStatus::kDuplicate;  // replacing the id would leave passive_ids_ pointing at a freed one
  CmId owned(id);
  CmAnswer answer{kHelloMagic, static_cast<uint32_t>(st), 0, 0, 0};
  if (st != HandshakeStatus::kOk) {
    rdma_reject(id, &answer, sizeof answer);
    print_line_to_stderr("rank " + std::to_string(h_.rank) + " rejected an rdma_cm connection: " + handshake_status_text(st));
    return;
  }
  const CmHello& hello = *parsed;
  auto& arrival = arrivals_[hello.from_rank];
  if (!arrival) {
    arrival = std::make_unique<Arrival>();
    arrival->res = new_link_resources(h_);
    arrival->ids.resize(hello.nqps);
  }
  set_options(id);
  create_qp(id, h_, arrival->res);
  if (hello.qp_index == 0) arrival->res.peer_ctrl_addr = hello.ctrl_addr, arrival->res.peer_ctrl_rkey = hello.ctrl_rkey;
  answer.ctrl_addr = arrival->res.ctrl->addr(), answer.ctrl_rkey = arrival->res.ctrl->rkey();
  rdma_conn_param p = conn_param(h_.opts, &answer, sizeof answer);
  if (rdma_accept(id, &p) != 0) throw_errno("rdma_accept from rank " + std::to_string(hello.from_rank), ctx(hello.from_rank));
  passive_ids_[id] = hello.from_rank;
  arrival->ids[hello.qp_index] = std::move(owned);
}

void RdmaCmLinkMaker::on_passive_event(rdma_cm_event* ev) {
  auto it = passive_ids_.find(ev->id);
  auto type = ev->event;
  rdma_ack_cm_event(ev);
  if (it == passive_ids_.end()) return;
  int peer = it->second;
  passive_ids_.erase(it);
  if (type == RDMA_CM_EVENT_ESTABLISHED) ++arrivals_[peer]->established;
  if (type == RDMA_CM_EVENT_ESTABLISHED) return;
  // A half-made connection from a peer that went away: forget all of it.
  for (auto i = passive_ids_.begin(); i != passive_ids_.end();) i = i->second == peer ? passive_ids_.erase(i) : std::next(i);
  arrivals_.erase(peer);
}

LinkResources RdmaCmLinkMaker::accept(int peer, Deadline deadline) {
  while (!arrivals_.count(peer) || arrivals_[peer]->established < h_.opts.qps) {
    rdma_cm_event* ev = next_event(deadline, peer);
    if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) on_connect_request(ev);
    else on_passive_event(ev);
  }
  auto arrival = std::move(arrivals_[peer]);
  arrivals_.erase(peer);
  auto own = new_channel();
  migrate(arrival->ids, own.get());
  arrival->res.link = std::make_unique<CmLink>(std::move(own), std::move(arrival->ids));
  return std::move(arrival->res);
}

}  // namespace ccb::verbs
