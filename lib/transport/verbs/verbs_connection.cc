#include "transport/verbs/verbs_connection.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstddef>

#include "core/error.h"
#include "transport/verbs/verbs_transport.h"

namespace ccb::verbs {
namespace {

constexpr uint64_t kLastOfPart = 1ull << 63;  // wr_id flag: this WR ends a part
constexpr uint64_t kControlWr = 0;            // CTS, credit and footer writes

class VerbsRequest final : public Request {
 public:
  VerbsRequest(VerbsTransport& t, int peer, std::shared_ptr<VerbsOp> op) : t_(t), peer_(peer), op_(std::move(op)) {}
  bool test() override {
    if (!op_->complete && !op_->error) t_.progress();
    if (op_->error) std::rethrow_exception(op_->error);
    return op_->complete;
  }
  size_t bytes() const override { return op_->moved; }
  std::string describe() const override {
    return std::string(op_->is_send ? "send to" : "recv from") + " rank " + std::to_string(peer_) + ", tag " +
           std::to_string(op_->tag) + ", " + std::to_string(op_->bytes) + " B over verbs";
  }

 private:
  VerbsTransport& t_;
  int peer_;
  std::shared_ptr<VerbsOp> op_;
};

const VerbsMemoryRegion& verbs_region(const MemoryRegion& mr) {
  auto* v = dynamic_cast<const VerbsMemoryRegion*>(&mr);
  if (!v) throw_invalid("memory passed to the verbs transport was not registered with it");
  return *v;
}

ErrorKind kind_of(ibv_wc_status s) {
  switch (s) {
    case IBV_WC_RETRY_EXC_ERR:
    case IBV_WC_RNR_RETRY_EXC_ERR: return ErrorKind::kPeerLost;
    case IBV_WC_REM_ACCESS_ERR:
    case IBV_WC_REM_INV_REQ_ERR: return ErrorKind::kProtocol;
    default: return ErrorKind::kSystem;
  }
}

// What a failed completion can tell: its status, which work request, on which QP, and
// the vendor's own code (NCCL prints the same).
std::string failed_work_request(const ibv_wc& wc) {
  char vendor[16];
  std::snprintf(vendor, sizeof vendor, "0x%x", wc.vendor_err);
  const char* wr = wc.wr_id == kRecvWrId ? "receive" : wc.wr_id == kControlWr ? "control write" : "data write";
  return "status " + std::to_string(wc.status) + ", " + wr + " on qpn " + std::to_string(wc.qp_num) + ", vendor_err " + vendor;
}

const char* hint_for(ibv_wc_status s) {
  switch (s) {
    case IBV_WC_RETRY_EXC_ERR: return "the peer is gone or unreachable (check the link and GID; --ib-timeout/--ib-retry)";
    case IBV_WC_RNR_RETRY_EXC_ERR: return "the peer posted no receive in time (receiver not ready)";
    case IBV_WC_REM_ACCESS_ERR: return "the peer refused the address or rkey (mismatched builds or a rogue peer)";
    case IBV_WC_WR_FLUSH_ERR: return "the queue pair is in error state after an earlier failure";
    case IBV_WC_LOC_PROT_ERR: return "a local buffer is outside its registration";
    default: return "see ibv_wc_status";
  }
}

}  // namespace

VerbsConnection::VerbsConnection(VerbsTransport& t, int peer, LinkResources res, const VerbsOptions& o)
    : transport_(t), peer_(peer), res_(std::move(res)), opts_(o), qps_(res_.link->qps()),
      sq_used_(qps_.size(), 0), pending_(kMaxPending) {
  transport_.attach(*this);
}

VerbsConnection::~VerbsConnection() { transport_.detach(*this); }

ErrorContext VerbsConnection::context(const char* phase) const {
  return ErrorContext{transport_.rank(), peer_, "verbs", phase, 0, transport_.port().short_name()};
}

void VerbsConnection::protocol_error(const std::string& what) const {
  throw Error(ErrorKind::kProtocol, "rank " + std::to_string(peer_) + " " + what + " (rogue peer or mismatched ccbench builds)",
              context("receive"));
}

RequestPtr VerbsConnection::isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) {
  auto op = std::make_shared<VerbsOp>();
  op->is_send = true, op->tag = tag, op->mr = &verbs_region(mr), op->offset = offset, op->bytes = bytes;
  if (!mr.contains(offset, bytes)) throw_invalid("isend outside its registered region");
  return start(std::move(op));
}

RequestPtr VerbsConnection::irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) {
  auto op = std::make_shared<VerbsOp>();
  op->tag = tag, op->mr = &verbs_region(mr), op->offset = offset, op->bytes = bytes;
  if (!mr.contains(offset, bytes)) throw_invalid("irecv outside its registered region");
  return start(std::move(op));
}

RequestPtr VerbsConnection::start(std::shared_ptr<VerbsOp> op) {
  if (failed_) op->error = failed_;
  else if (lost_)
    op->error = std::make_exception_ptr(Error(ErrorKind::kPeerLost,
        "rank " + std::to_string(peer_) + " closed its connection (process exited or was killed)", context("post")));
  else if (op->is_send) sends_by_tag_[op->tag].push_back(op);
  else unadvertised_.push_back(op);
  auto request = std::make_unique<VerbsRequest>(transport_, peer_, op);
  if (!op->error) {
    if (op->is_send) match_sends(), post_sends();
    else advertise_receives();
  }
  return request;
}

bool VerbsConnection::poll() {
  if (failed_) return false;
  ibv_wc wc[32];
  int n = ibv_poll_cq(res_.cq->get(), 32, wc);
  if (n < 0) throw Error(ErrorKind::kSystem, "ibv_poll_cq failed", context("progress"));
  try {
    for (int i = 0; i < n; ++i) on_completion(wc[i]);
    if (n > 0) {
      match_sends();
      post_credit_if_due();
      advertise_receives();
      post_sends();
    }
  } catch (...) {
    fail(std::current_exception());
    throw;
  }
  return n > 0;
}

size_t VerbsConnection::qp_index(uint32_t qp_num) const {
  for (size_t i = 0; i < qps_.size(); ++i)
    if (qps_[i]->qp_num == qp_num) return i;
  throw Error(ErrorKind::kSystem, "completion for unknown QP " + std::to_string(qp_num), context("progress"));
}

void VerbsConnection::on_completion(const ibv_wc& wc) {
  if (wc.status != IBV_WC_SUCCESS) {
    const bool recv = wc.wr_id == kRecvWrId;
    throw Error(kind_of(wc.status),
                std::string("RDMA ") + (recv ? "receive from" : "write to") + " rank " + std::to_string(peer_) +
                    " failed: " + ibv_wc_status_str(wc.status) + " (" + failed_work_request(wc) + "): " + hint_for(wc.status),
                context(recv ? "receive" : "send"));
  }
  const size_t q = qp_index(wc.qp_num);
  if (!(wc.opcode & IBV_WC_RECV)) return on_send_completion(wc), void();
  post_receives(qps_[q], 1);
  const uint32_t imm = ntohl(wc.imm_data);
  if (!(wc.wc_flags & IBV_WC_WITH_IMM)) protocol_error("sent a message without an immediate");
  switch (imm_kind(imm)) {
    case ImmKind::kData: return on_data(imm);
    case ImmKind::kCts: return q == 0 ? on_cts(imm_low24(imm)) : protocol_error("sent a clear-to-send on a data QP");
    case ImmKind::kCredit: return on_credit(imm_low24(imm));
    default: protocol_error("sent an immediate of unknown kind " + std::to_string(imm >> 30));
  }
}

void VerbsConnection::on_send_completion(const ibv_wc& wc) {
  --sq_used_[qp_index(wc.qp_num)];
  if (!(wc.wr_id & kLastOfPart)) return;
  auto it = in_flight_.find(wc.wr_id & ~kLastOfPart);
  if (it == in_flight_.end()) return;
  VerbsOp& op = *it->second;
  if (++op.parts_done == op.parts) {
    op.moved = op.bytes;
    op.complete = true;
    in_flight_.erase(it);
  }
}

void VerbsConnection::on_cts(uint32_t slot) {
  if (slot != cts_received_ % kFifoDepth)
    protocol_error("wrote clear-to-send slot " + std::to_string(slot) + " out of order");
  const CtsEntry e = res_.ctrl->layout().fifo[slot];
  cts_by_tag_[e.tag].push_back(e);
  ++cts_received_;
  credit_due_ = true;
}

void VerbsConnection::on_credit(uint32_t count) {
  uint64_t delta = (count - static_cast<uint32_t>(peer_consumed_)) & kIdMask;
  if (peer_consumed_ + delta > cts_sent_) protocol_error("returned credit for clear-to-sends never sent");
  peer_consumed_ += delta;
}

void VerbsConnection::on_data(uint32_t imm) {
  const uint32_t id = imm_low24(imm), parts = imm_parts(imm);
  auto& slot = pending_[id % kMaxPending];
  if (!slot || slot->id != id) protocol_error("wrote data for receive id " + std::to_string(id) + ", which is not posted");
  if (parts == 0 || parts > qps_.size()) protocol_error("sent a message in " + std::to_string(parts) + " parts");
  if (++slot->parts_seen < parts) return;
  const DataFooter f = res_.ctrl->layout().footers[id % kMaxPending];
  if (f.id != id || f.tag != slot->tag)
    protocol_error("wrote tag " + std::to_string(f.tag) + " into the receive posted for tag " + std::to_string(slot->tag));
  if (f.size > slot->bytes)
    protocol_error("wrote " + std::to_string(f.size) + " B into a receive of " + std::to_string(slot->bytes) + " B");
  slot->moved = f.size;
  slot->complete = true;
  slot.reset();
}

void VerbsConnection::advertise_receives() {
  ControlLayout& ctrl = res_.ctrl->layout();
  while (!unadvertised_.empty() && cts_sent_ - peer_consumed_ < kFifoDepth && room(0, 1)) {
    auto& op = unadvertised_.front();
    const uint32_t id = next_id_ & kIdMask;
    if (pending_[id % kMaxPending]) break;  // kMaxPending receives are in flight already
    ++next_id_;
    op->id = id;
    const uint32_t slot = cts_sent_ % kFifoDepth;
    CtsEntry& e = ctrl.out_cts[slot];
    e = CtsEntry{reinterpret_cast<uintptr_t>(op->mr->base() + op->offset), op->bytes, op->mr->rkey(), op->tag, id, 0};
    const uint32_t imm = imm_cts(slot);
    post(0, kControlWr, reinterpret_cast<uintptr_t>(&e), sizeof e, res_.ctrl->lkey(),
         res_.peer_ctrl_addr + offsetof(ControlLayout, fifo) + slot * sizeof(CtsEntry), res_.peer_ctrl_rkey, &imm);
    ++cts_sent_;
    pending_[id % kMaxPending] = std::move(op);
    unadvertised_.pop_front();
  }
}

void VerbsConnection::post_credit_if_due() {
  if (!credit_due_ || cts_received_ - credit_sent_ < kFifoDepth / 2 || !room(0, 1)) return;
  const uint32_t imm = imm_credit(static_cast<uint32_t>(cts_received_));
  post(0, kControlWr, 0, 0, 0, res_.peer_ctrl_addr, res_.peer_ctrl_rkey, &imm);
  credit_sent_ = cts_received_;
  credit_due_ = false;
}

void VerbsConnection::match_sends() {
  for (auto& [tag, sends] : sends_by_tag_) {
    auto c = cts_by_tag_.find(tag);
    while (!sends.empty() && c != cts_by_tag_.end() && !c->second.empty()) {
      auto op = std::move(sends.front());
      sends.pop_front();
      op->cts = c->second.front();
      c->second.pop_front();
      if (op->bytes > op->cts.size)
        throw Error(ErrorKind::kInvalidArgument,
                    "message of " + std::to_string(op->bytes) + " B for tag " + std::to_string(tag) +
                        " is larger than the receive of " + std::to_string(op->cts.size) + " B that rank " +
                        std::to_string(peer_) + " posted",
                    context("send"));
      op->parts = static_cast<uint32_t>(std::clamp<size_t>((op->bytes + opts_.min_part - 1) / opts_.min_part, 1, qps_.size()));
      op->part_bytes = ((op->bytes + op->parts - 1) / op->parts + kPartAlign - 1) / kPartAlign * kPartAlign;
      for (uint32_t p = 0; p < op->parts; ++p) op->cursor.push_back(std::min(op->bytes, p * op->part_bytes));
      op->op_id = next_op_id_++;
      in_flight_[op->op_id] = op;
      active_.push_back(std::move(op));
    }
  }
}

void VerbsConnection::post_sends() {
  for (auto it = active_.begin(); it != active_.end();) {
    bool all = true;
    for (uint32_t p = 0; p < (*it)->parts; ++p) all = post_part(**it, p) && all;
    it = all ? active_.erase(it) : std::next(it);
  }
}

// Posts what the send queue has room for; true once the part's last WR is posted.
bool VerbsConnection::post_part(VerbsOp& op, uint32_t p) {
  const size_t end = std::min(op.bytes, (p + 1) * op.part_bytes);
  size_t& pos = op.cursor[p];
  if (pos > end) return true;  // posted already (the cursor moves past the end)
  const uint32_t rkey = op.cts.rkey ^ (opts_.fault == VerbsFault::kBadRkey ? 0x5a5a : 0);
  const char* base = op.mr->base() + op.offset;
  while (true) {
    const size_t len = std::min<size_t>(end - pos, res_.max_wr_bytes);
    const bool last = pos + len == end;
    if (!room(p, last && p == 0 ? 2 : 1)) return false;
    if (last && p == 0) {
      DataFooter& f = res_.ctrl->layout().out_footers[op.cts.id % kMaxPending];
      f = DataFooter{op.bytes, op.tag ^ (opts_.fault == VerbsFault::kBadTag ? 1u : 0u), op.cts.id};
      post(0, kControlWr, reinterpret_cast<uintptr_t>(&f), sizeof f, res_.ctrl->lkey(),
           res_.peer_ctrl_addr + offsetof(ControlLayout, footers) + (op.cts.id % kMaxPending) * sizeof f,
           res_.peer_ctrl_rkey, nullptr);
    }
    const uint32_t imm = imm_data(op.cts.id, op.parts);
    post(p, op.op_id | (last ? kLastOfPart : 0), reinterpret_cast<uintptr_t>(base + pos), static_cast<uint32_t>(len),
         op.mr->lkey(), op.cts.addr + pos, rkey, last ? &imm : nullptr);
    pos += len;
    if (last) return ++pos, true;
  }
}

void VerbsConnection::post(size_t qp, uint64_t wr_id, uint64_t laddr, uint32_t len, uint32_t lkey, uint64_t raddr,
                           uint32_t rkey, const uint32_t* imm) {
  ibv_sge sge{laddr, len, lkey};
  ibv_send_wr wr{}, *bad = nullptr;
  wr.wr_id = wr_id;
  wr.sg_list = len ? &sge : nullptr;
  wr.num_sge = len ? 1 : 0;
  wr.opcode = imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
  wr.send_flags = IBV_SEND_SIGNALED | (len && len <= res_.max_inline && wr_id == kControlWr ? IBV_SEND_INLINE : 0);
  if (imm) wr.imm_data = htonl(*imm);
  wr.wr.rdma.remote_addr = raddr;
  wr.wr.rdma.rkey = rkey;
  if (int rc = ibv_post_send(qps_[qp], &wr, &bad); rc != 0) {
    ErrorContext ctx = context("send");
    ctx.sys_errno = rc;
    throw Error(ErrorKind::kSystem, "ibv_post_send to rank " + std::to_string(peer_) + " failed", ctx);
  }
  ++sq_used_[qp];
}

void VerbsConnection::check_liveness() {
  if (lost_ || failed_ || !res_.link->peer_left()) return;
  while (poll()) {
  }  // what the peer wrote before it left still counts
  lost_ = true;
  bool busy = !unadvertised_.empty() || !active_.empty() || !in_flight_.empty() ||
              std::any_of(pending_.begin(), pending_.end(), [](auto& p) { return p != nullptr; }) ||
              std::any_of(sends_by_tag_.begin(), sends_by_tag_.end(), [](auto& s) { return !s.second.empty(); });
  if (busy)
    fail(std::make_exception_ptr(Error(ErrorKind::kPeerLost,
        "rank " + std::to_string(peer_) + " closed its connection mid-transfer (process exited or was killed)",
        context("transfer"))));
}

void VerbsConnection::fail(const std::exception_ptr& e) {
  if (failed_) return;
  failed_ = e;
  auto mark = [&](const std::shared_ptr<VerbsOp>& op) {
    if (op && !op->complete) op->error = e;
  };
  for (auto& op : unadvertised_) mark(op);
  for (auto& op : pending_) mark(op);
  for (auto& [tag, q] : sends_by_tag_)
    for (auto& op : q) mark(op);
  for (auto& [id, op] : in_flight_) mark(op);
  transport_.record_failure(e);
}

}  // namespace ccb::verbs
