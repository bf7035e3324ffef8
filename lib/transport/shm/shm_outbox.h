// The sending half of a shm connection: publishes messages into our ring in the order
// they were posted, a slot at a time, and kDone answers ahead of them.
#pragma once
#include <deque>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "transport/shm/shm_op.h"
#include "transport/shm/shm_ring.h"

namespace ccb::shm {

class ShmOutbox {
 public:
  // `single_copy`: the reader proved at connect that it can pull from our memory.
  ShmOutbox(Ring& ring, ErrorContext ctx, bool single_copy);

  ShmOpPtr post(const char* buf, size_t bytes, uint32_t tag);
  // Publishes the answers in `dones`, then as much of the posted sends as the ring has
  // room for; returns the slots published.
  size_t pump(PendingDones& dones);
  // The reader pulled a single copy: its send is complete.
  void complete(const MessageKey& k);
  bool has_work(const PendingDones& dones) const;
  void fail_pending(const std::exception_ptr& e);
  bool single_copy() const { return single_copy_; }

 private:
  uint64_t free_slots() const;
  void publish_next(Slot& slot, PendingDones& dones);

  Ring& ring_;
  ErrorContext ctx_;
  bool single_copy_;
  uint64_t published_ = 0;  // our own count of slots stamped
  mutable uint64_t tail_seen_ = 0;  // the reader's tail when we last had to look
  TagSequence send_seq_;
  std::deque<ShmOpPtr> queue_;
  std::unordered_map<MessageKey, ShmOpPtr, MessageKeyHash> awaiting_done_;
};

}  // namespace ccb::shm
