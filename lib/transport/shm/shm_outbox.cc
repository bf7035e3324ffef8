#include "transport/shm/shm_outbox.h"

#include <algorithm>
#include <cstring>

namespace ccb::shm {

ShmOutbox::ShmOutbox(Ring& ring, ErrorContext ctx, bool single_copy)
    : ring_(ring), ctx_(std::move(ctx)), single_copy_(single_copy) {}

ShmOpPtr ShmOutbox::post(const char* buf, size_t bytes, uint32_t tag) {
  auto op = std::make_shared<ShmOp>(ShmOp::Kind::kSend, tag, send_seq_[tag]++, const_cast<char*>(buf), bytes, bytes);
  op->single_copy = single_copy_ && bytes >= kSingleCopyBytes;
  queue_.push_back(op);
  return op;
}

uint64_t ShmOutbox::free_slots() const {
  const uint64_t tail = ring_.tail.load(std::memory_order_seq_cst);  // the reader's word: hostile
  if (std::string why = check_indices(published_, tail); !why.empty())
    throw Error(ErrorKind::kProtocol, "rank " + std::to_string(ctx_.peer) + " broke the shm protocol: " + why, ctx_);
  return kSlots - (published_ - tail);
}

bool ShmOutbox::has_work(const std::deque<MessageKey>& dones) const {
  return (!dones.empty() || !queue_.empty()) && free_slots() > 0;
}

void ShmOutbox::publish_next(Slot& slot, std::deque<MessageKey>& dones) {
  SlotHeader& h = slot.header;
  if (!dones.empty()) {
    h = SlotHeader{static_cast<uint32_t>(SlotKind::kDone), dones.front().tag, dones.front().seq, 0, 0, 0, 0};
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

size_t ShmOutbox::pump(std::deque<MessageKey>& dones) {
  size_t n = 0;
  for (uint64_t free = free_slots(); free > 0 && (!dones.empty() || !queue_.empty()); --free, ++n) {
    publish_next(ring_.slots[published_ % kSlots], dones);
    // Slot by slot, so the reader copies one while we fill the next.
    ring_.head.store(++published_, std::memory_order_seq_cst);
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
