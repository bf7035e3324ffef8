#include "transport/shm/shm_inbox.h"

#include <cstring>

namespace ccb::shm {

ShmInbox::ShmInbox(Ring& ring, ErrorContext ctx, Puller pull, size_t max_held)
    : ring_(ring), ctx_(std::move(ctx)), pull_(std::move(pull)), max_held_(max_held) {}

void ShmInbox::protocol_error(const std::string& what) const {
  throw Error(ErrorKind::kProtocol, "rank " + std::to_string(ctx_.peer) + " broke the shm protocol: " + what, ctx_);
}

void ShmInbox::check_fits(const ShmOp& op, uint64_t total) const {
  if (total > op.capacity)
    throw Error(ErrorKind::kProtocol,
                "message of " + std::to_string(total) + " B on tag " + std::to_string(op.tag) +
                    " is larger than the receive posted for it (" + std::to_string(op.capacity) + " B)",
                ctx_);
}

ShmOpPtr ShmInbox::post(char* buf, size_t capacity, uint32_t tag) {
  const MessageKey key{tag, recv_seq_.next(tag)};
  auto op = make_op(ShmOp::Kind::kRecv, tag, key.seq, buf, capacity, SIZE_MAX);
  blocked_ = false;  // a held message may be this one's
  auto early = early_.find(key);
  if (early == early_.end()) {
    posted_.add(key, op);
    return op;
  }
  ShmOpPtr e = std::move(early->second);
  early_.erase(early);
  try {
    check_fits(*op, e->total);
    op->total = e->total;
    if (e->single_copy) {
      pull(op, e->address, e->total);
      return op;
    }
    if (e->done) std::memcpy(op->buf, e->buf, e->done);
    op->done = e->done;
    held_ -= e->storage.size();
    op->complete = op->done == op->total;
    if (!op->complete) posted_.add(key, op);
  } catch (...) {
    op->error = std::current_exception();
  }
  return op;
}

// Anything but the stamp of a lap ago is news: drain() judges whether it is sound.
bool ShmInbox::has_unread() const {
  const uint64_t stamp = ring_.slots[consumed_ % kSlots].stamp.load(std::memory_order_seq_cst);
  return !blocked_ && stamp != stamp_a_lap_before(consumed_ + 1);
}

size_t ShmInbox::drain() {
  size_t n = 0;
  while (n < kSlots) {  // a lap at most: a peer that keeps stamping cannot hold us here
    const Slot& slot = ring_.slots[consumed_ % kSlots];
    const uint64_t stamp = slot.stamp.load(std::memory_order_acquire);
    if (stamp == stamp_a_lap_before(consumed_ + 1)) break;  // not yet written
    if (stamp != consumed_ + 1) protocol_error(check_stamp(stamp, consumed_ + 1));
    SlotHeader h;
    std::memcpy(&h, &slot.header, sizeof h);  // judged and used as one copy the peer cannot change
    if (std::string why = check_slot(h); !why.empty()) protocol_error(why);
    if (!take(h, slot.payload)) {
      blocked_ = true;
      break;
    }
    ++consumed_;
    ++n;
  }
  if (n) ring_.tail.store(consumed_, std::memory_order_seq_cst);  // seq_cst: notify_peer() then reads whether the sender sleeps
  return n;
}

bool ShmInbox::take(const SlotHeader& h, const char* payload) {
  switch (static_cast<SlotKind>(h.kind)) {
    case SlotKind::kData: return take_data(h, payload);
    case SlotKind::kPull: return take_pull(h);
    case SlotKind::kDone: dones_received_.push_back({h.tag, h.seq}); return true;
  }
  protocol_error("a slot of unknown kind " + std::to_string(h.kind));
}

bool ShmInbox::take_data(const SlotHeader& h, const char* payload) {
  const MessageKey key{h.tag, h.seq};
  if (ShmOp* p = posted_.find(key)) {
    place(*p, h, payload);
    if (p->complete) posted_.take(key);
    return true;
  }
  auto e = early_.find(key);
  if (e == early_.end()) {
    if (h.offset != 0) protocol_error("a message on tag " + std::to_string(h.tag) + " begins at offset " + std::to_string(h.offset));
    if (h.total > max_held_ - held_ || early_.size() >= kMaxEarlyMessages)
      return false;  // stays in the ring until its receive
    auto op = make_op(ShmOp::Kind::kRecv, h.tag, h.seq, nullptr, h.total, SIZE_MAX);
    op->storage.resize(h.total);
    op->buf = op->storage.data();
    held_ += h.total;
    e = early_.emplace(key, std::move(op)).first;
  } else if (e->second->single_copy) {
    protocol_error("data on tag " + std::to_string(h.tag) + " for a message announced as a single copy");
  }
  place(*e->second, h, payload);
  return true;
}

bool ShmInbox::take_pull(const SlotHeader& h) {
  const MessageKey key{h.tag, h.seq};
  if (ShmOpPtr op = posted_.take(key)) {
    if (op->done != 0) protocol_error("a single copy on tag " + std::to_string(h.tag) + " after its data began");
    check_fits(*op, h.total);
    op->total = h.total;
    pull(op, h.address, h.total);
    return true;
  }
  if (early_.count(key)) protocol_error("message " + std::to_string(h.seq) + " on tag " + std::to_string(h.tag) + " announced twice");
  if (early_.size() >= kMaxEarlyMessages) return false;  // stays in the ring until its receive
  auto op = make_op(ShmOp::Kind::kRecv, h.tag, h.seq, nullptr, 0, h.total);
  op->single_copy = true;
  op->address = h.address;
  early_.emplace(key, std::move(op));
  return true;
}

void ShmInbox::place(ShmOp& op, const SlotHeader& h, const char* payload) {
  if (op.total == SIZE_MAX) {
    check_fits(op, h.total);
    op.total = h.total;
  } else if (h.total != op.total) {
    protocol_error("message on tag " + std::to_string(h.tag) + " changed its size from " + std::to_string(op.total) + " to " +
                   std::to_string(h.total) + " B");
  }
  if (h.offset != op.done)
    protocol_error("a slot on tag " + std::to_string(h.tag) + " lands at " + std::to_string(h.offset) + ", not at " + std::to_string(op.done));
  if (h.len) std::memcpy(op.buf + h.offset, payload, h.len);
  op.done += h.len;
  op.complete = op.done == op.total;
}

void ShmInbox::pull(const ShmOpPtr& op, uint64_t address, size_t bytes) {
  pull_(op->buf, address, bytes);
  op->done = bytes;  // complete once its kDone is published (PendingDone)
  dones_to_send_.push_back({{op->tag, op->seq}, op});
}

void ShmInbox::fail_pending(const std::exception_ptr& e) {
  posted_.fail_all(e);
  for (PendingDone& d : dones_to_send_) d.op->error = e;
  dones_to_send_.clear();
}

}  // namespace ccb::shm
