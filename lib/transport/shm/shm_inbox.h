// The receiving half of a shm connection: reads the peer's ring, matches each message to
// its receive by (tag, seq), and holds what comes before its receive is posted. It knows
// nothing of sockets or of the transport, so the fuzzer drives it over a ring of noise.
#pragma once
#include <deque>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "transport/shm/shm_op.h"
#include "transport/shm/shm_posted.h"
#include "transport/shm/shm_ring.h"

namespace ccb::shm {

constexpr size_t kMaxEarlyMessages = 65536;

class ShmInbox {
 public:
  // `max_held`: bytes of early messages this inbox copies out of the ring; past it, or
  // past kMaxEarlyMessages of them (zero-byte ones and announced pulls hold no bytes), a
  // message waits in the ring for its receive (transport.h's flow-control rule).
  ShmInbox(Ring& ring, ErrorContext ctx, Puller pull, size_t max_held);

  ShmOpPtr post(char* buf, size_t capacity, uint32_t tag);
  // Consumes every slot it can act on; returns how many. Throws kProtocol naming the
  // fault when the peer's ring or a slot is unsound.
  size_t drain();
  bool has_unread() const;  // the peer published slots this inbox has not consumed

  // Messages pulled in one copy, whose sender waits for a kDone slot: taken by the outbox.
  PendingDones& dones_to_send() { return dones_to_send_; }
  const PendingDones& dones_to_send() const { return dones_to_send_; }
  // kDone slots from the peer: sends of ours it has pulled, for the outbox to complete.
  std::deque<MessageKey>& dones_received() { return dones_received_; }
  void fail_pending(const std::exception_ptr& e);
  bool idle() const { return posted_.empty(); }

 private:
  bool take(const SlotHeader& h, const char* payload);
  bool take_data(const SlotHeader& h, const char* payload);
  bool take_pull(const SlotHeader& h);
  void place(ShmOp& op, const SlotHeader& h, const char* payload);
  void pull(const ShmOpPtr& op, uint64_t address, size_t bytes);
  void check_fits(const ShmOp& op, uint64_t total) const;
  [[noreturn]] void protocol_error(const std::string& what) const;

  Ring& ring_;
  ErrorContext ctx_;
  Puller pull_;
  size_t max_held_;
  size_t held_ = 0;
  bool blocked_ = false;  // the next slot waits for its receive: nothing to read until one is posted
  uint64_t consumed_ = 0;  // our own count: the tail word in the segment is only published
  TagSequence recv_seq_;
  PostedReceives posted_;
  std::unordered_map<MessageKey, ShmOpPtr, MessageKeyHash> early_;
  PendingDones dones_to_send_;
  std::deque<MessageKey> dones_received_;
};

}  // namespace ccb::shm
