// The shared-memory transport's segment, told as the life of one message.
//
// Two ranks on one host share one segment per pair: a memfd that the lower rank creates,
// seals against shrinking, and passes to the higher rank over a Unix socket (shm_handshake.h).
// It holds two rings, one per direction. Each ring has kSlots slots of kSlotBytes. The
// sender stamps slot n (counting from 1) with n once it is written, as its last store;
// the reader polls the stamp of the slot it expects next and owns `tail` (slots
// consumed), which the sender reads only when its own count says the ring is full. So a
// small message costs the reader one cache line (stamp, header and its first 8 bytes,
// as vader's fast boxes do) and the sender no read of the reader's line at all.
//
// A message (tag, seq) of `total` bytes travels one of two ways:
//  - eager: cut into kData slots of up to kSlotBytes, in order, each saying its `offset`.
//    The send completes once its last slot is published: the data is in the ring.
//  - single copy: at least kSingleCopyBytes, when the reader proved at connect that it
//    may read the sender's memory (process_vm_readv). One kPull slot carries the
//    sender's address; the reader copies straight from it into its receive, then
//    answers with a kDone slot on the other ring, which completes the send. The receive
//    completes when that kDone is published, not before: a reader whose receive is
//    complete may stop driving the connection, and a kDone still queued behind a full
//    ring would never leave.
// `seq` counts messages per (direction, tag), as on TCP: it keeps per-tag order.
//
// Everything in the segment is written by the peer, so the reader treats it as hostile:
// it copies a slot's header out before judging it, checks that a stamp is the expected
// one or the one from a lap ago, that the tail is at most kSlots behind, and that a
// slot's length and offset lie inside the slot and the message, and turns any violation
// into a named protocol error (fuzz/fuzz_shm_ring.cc).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ccb::shm {

constexpr uint64_t kSegmentMagic = 0x4d48534342434343ull;  // "CCCBCSHM"
constexpr uint32_t kSegmentVersion = 2;  // 2: stamped slots, no head word
constexpr uint32_t kSlots = 16;
constexpr size_t kSlotBytes = 128 << 10;
constexpr size_t kSingleCopyBytes = 256 << 10;
// Hostile-peer limit: a header above it is a protocol error, never an allocation.
constexpr uint64_t kMaxMessageBytes = 1ull << 40;

enum class SlotKind : uint32_t { kData = 1, kPull = 2, kDone = 3 };

struct SlotHeader {
  uint32_t kind;
  uint32_t tag;
  uint64_t seq;
  uint64_t total;   // the message's size
  uint64_t offset;  // kData: where this slot's bytes land in the message
  uint64_t len;     // kData: bytes in this slot
  uint64_t address; // kPull: where the message lies in the sender's memory
};

struct alignas(64) Slot {
  std::atomic<uint64_t> stamp;  // written by the sender only, after the rest of the slot
  SlotHeader header;
  char payload[kSlotBytes];
};
static_assert(offsetof(Slot, payload) <= 56, "a small message shares its stamp's cache line");

struct alignas(64) Ring {
  std::atomic<uint64_t> tail;  // written by the reader only
  alignas(64) Slot slots[kSlots];
};

// side 0 is the creator (the lower rank), side 1 the one that adopted the segment.
struct Segment {
  uint64_t magic;
  uint32_t version;
  uint32_t slots;
  uint64_t slot_bytes;
  alignas(64) std::atomic<uint32_t> asleep[2];  // side s waits in epoll: wake it by its socket
  Ring ring[2];                                 // ring[s] carries side s's messages
};

static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free,
              "the segment's words are shared between processes");

// "" when the reader's tail is sound against the slots published; otherwise what is wrong.
std::string check_indices(uint64_t published, uint64_t tail);
// "" when the stamp of ring slot `expected` (counting from 1) is `expected` (written) or
// the one it had a lap ago (not yet);
// otherwise what is wrong with it.
std::string check_stamp(uint64_t stamp, uint64_t expected);
// The stamp the slot of message `expected` holds until that message is written.
constexpr uint64_t stamp_a_lap_before(uint64_t expected) { return expected > kSlots ? expected - kSlots : 0; }
// "" when a slot's header can be acted on; otherwise what is wrong with it.
std::string check_slot(const SlotHeader& h);
// "" when a segment made by the peer has this build's layout.
std::string check_layout(const Segment& s);

}  // namespace ccb::shm
