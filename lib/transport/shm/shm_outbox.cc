#include "transport/shm/shm_outbox.h"

#include <algorithm>
#include <cstring>

namespace ccb::shm {

ShmOutbox::ShmOutbox(Ring& ring, ErrorContext ctx, bool single_copy)
    : ring_(ring), ctx_(std::move(ctx)), single_copy_(single_copy) {}

ShmOpPtr ShmOutbox::post(const char* buf, size_t bytes, uint32_t tag) {
  auto op = make_op(ShmOp::Kind::kSend, tag, send_seq_.next(tag), const_cast<char*>(buf), bytes, bytes);
  op->single_copy = single_copy_ && bytes >= kSingleCopyBytes;
  queue_.push_back(op);
  return op;
}

// The reader's tail line is read only when what we saw of it last leaves no room, so a
// sender with room never pulls that line away from the reader.
uint64_t ShmOutbox::free_slots() const {
  if (published_ - tail_seen_ < kSlots) return kSlots - (published_ - tail_seen_);
  const uint64_t tail = ring_.tail.load(std::memory_order_seq_cst);  // the reader's word: hostile
  if (std::string why = check_indices(published_, tail); !why.empty() || tail < tail_seen_)
    throw Error(ErrorKind::kProtocol,
                "rank " + std::to_string(ctx_.peer) + " broke the shm protocol: " +
                    (why.empty() ? "its ring tail went back from " + std::to_string(tail_seen_) + " to " + std::to_string(tail) : why),
                ctx_);
  tail_seen_ = tail;
  return kSlots - (published_ - tail);
}

bool ShmOutbox::has_work(const PendingDones& dones) const {
  return (!dones.empty() || !queue_.empty()) && free_slots() > 0;
}

void ShmOutbox::publish_next(Slot& slot, PendingDones& dones) {
  SlotHeader& h = slot.header;
  if (!dones.empty()) {
    const PendingDone& d = dones.front();
    h = SlotHeader{static_cast<uint32_t>(SlotKind::kDone), d.key.tag, d.key.seq, 0, 0, 0, 0};
    d.op->complete = true;  // the slot is stamped right after this returns, before the caller can see it
    dones.pop_front();
    return;
  }
  ShmOp& op = *queue_.front();
  if (op.single_copy) {
    h = SlotHeader{static_cast<uint32_t>(SlotKind::kPull), op.tag, op.seq, op.capacity, 0, 0, reinterpret_cast<uint64_t>(op.buf)};
    awaiting_done_[{op.tag, op.seq}] = queue_.front();
    queue_.pop_front();
    return;
  }
  const size_t len = std::min(kSlotBytes, op.capacity - op.done);
  h = SlotHeader{static_cast<uint32_t>(SlotKind::kData), op.tag, op.seq, op.capacity, op.done, len, 0};
  if (len) std::memcpy(slot.payload, op.buf + op.done, len);
  op.done += len;
  if (op.done == op.capacity) {
    op.complete = true;  // the data is in the ring: the buffer is the caller's again
    queue_.pop_front();
  }
}

size_t ShmOutbox::pump(PendingDones& dones) {
  if (dones.empty() && queue_.empty()) return 0;
  size_t n = 0;
  for (uint64_t free = free_slots(); free > 0 && (!dones.empty() || !queue_.empty()); --free, ++n) {
    Slot& slot = ring_.slots[published_ % kSlots];
    publish_next(slot, dones);
    // Slot by slot, so the reader copies one while we fill the next; seq_cst, because
    // notify_peer() then reads whether the reader sleeps (shm_transport.cc).
    slot.stamp.store(++published_, std::memory_order_seq_cst);
  }
  return n;
}

void ShmOutbox::complete(const MessageKey& k) {
  auto it = awaiting_done_.find(k);
  if (it == awaiting_done_.end())
    throw Error(ErrorKind::kProtocol,
                "rank " + std::to_string(ctx_.peer) + " broke the shm protocol: it answered message " + std::to_string(k.seq) +
                    " on tag " + std::to_string(k.tag) + ", which waits for no answer",
                ctx_);
  it->second->done = it->second->capacity;
  it->second->complete = true;
  awaiting_done_.erase(it);
}

void ShmOutbox::fail_pending(const std::exception_ptr& e) {
  for (auto& op : queue_) op->error = e;
  for (auto& [key, op] : awaiting_done_) op->error = e;
  queue_.clear();
  awaiting_done_.clear();
}

}  // namespace ccb::shm
