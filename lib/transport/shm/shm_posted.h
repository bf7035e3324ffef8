// The receives an inbox has posted and not yet filled, found by (tag, seq). Messages
// arrive mostly in the order their receives were posted, so the oldest is looked at
// first and a filled one leaves a hole that is swept once it reaches the front: a small
// message costs no hashing and no allocation, and a wide window of them stays cheap.
#pragma once
#include <deque>
#include <utility>

#include "transport/message_key.h"
#include "transport/shm/shm_op.h"

namespace ccb::shm {

class PostedReceives {
 public:
  void add(const MessageKey& key, ShmOpPtr op) {
    entries_.push_back({key, std::move(op)});
    ++live_;
  }
  // The receive posted for `key`, or nullptr.
  ShmOp* find(const MessageKey& key) {
    for (Entry& e : entries_)
      if (e.op && e.key == key) return e.op.get();
    return nullptr;
  }
  // Takes the receive for `key` out (nullptr when there is none).
  ShmOpPtr take(const MessageKey& key) {
    ShmOpPtr taken;
    for (Entry& e : entries_)
      if (e.op && e.key == key) {
        taken = std::move(e.op);
        --live_;
        break;
      }
    while (!entries_.empty() && !entries_.front().op) entries_.pop_front();
    return taken;
  }
  bool empty() const { return live_ == 0; }
  void fail_all(const std::exception_ptr& error) {
    for (Entry& e : entries_)
      if (e.op) e.op->error = error;
    entries_.clear();
    live_ = 0;
  }

 private:
  struct Entry {
    MessageKey key;
    ShmOpPtr op;  // nullptr: filled, waiting to be swept
  };
  std::deque<Entry> entries_;
  size_t live_ = 0;
};

}  // namespace ccb::shm
