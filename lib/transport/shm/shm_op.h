// The state of one shm send or receive, shared by its Request handle and the connection
// (so a dropped handle never leaves the connection with a dangling op).
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "transport/message_key.h"

namespace ccb::shm {

struct ShmOp {
  enum class Kind { kSend, kRecv };
  Kind kind;
  uint32_t tag;
  uint64_t seq;
  char* buf;
  size_t capacity;
  size_t total;      // a receive's: SIZE_MAX until its first slot says
  size_t done = 0;   // bytes placed (receive) or published (send)
  bool single_copy = false;  // a send the reader pulls, or an unexpected pull to make
  uint64_t address = 0;      // an unexpected pull's: where the message lies in the sender
  bool complete = false;
  std::exception_ptr error;
  std::vector<char> storage;  // owns buf for a message that came before its receive

  ShmOp(Kind k, uint32_t t, uint64_t s, char* b, size_t cap, size_t tot)
      : kind(k), tag(t), seq(s), buf(b), capacity(cap), total(tot) {}
};
using ShmOpPtr = std::shared_ptr<ShmOp>;

// A receive pulled in one copy, whose kDone slot the sender waits for. The receive
// completes only once that slot is published: a rank that saw its receive complete may
// stop driving the connection, and a kDone left queued behind a full ring would then
// never leave, its sender waiting for good.
struct PendingDone {
  MessageKey key;
  ShmOpPtr op;
};
using PendingDones = std::deque<PendingDone>;

// Ops come from a small cache of this thread's: an 8 B exchange would otherwise spend a
// good part of its time in the allocator. recycle_op() keeps an op only when its caller
// holds the last reference (the connection is done with it).
ShmOpPtr make_op(ShmOp::Kind kind, uint32_t tag, uint64_t seq, char* buf, size_t capacity, size_t total);
void recycle_op(ShmOpPtr op);

// Copies `bytes` from `address` in the peer's memory to `into` (process_vm_readv).
using Puller = std::function<void(char* into, uint64_t address, size_t bytes)>;

}  // namespace ccb::shm
