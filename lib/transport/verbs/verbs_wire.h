// The verbs transport's wire protocol (little-endian hosts), after NCCL's net_ib.
//
// Each direction of a connection has a receiver R and a sender S. Every side owns a
// ControlBlock registered for remote write, whose address and rkey the handshake
// exchanges:
//
//   fifo[kFifoDepth]      CtsEntry, written by the peer's receiver (clear-to-send)
//   footers[kMaxPending]  DataFooter, written by the peer's sender
//
// 1. R posts irecv(buffer, tag): it takes receive id `id` (a 24-bit counter) and
//    RDMA-WRITEs-WITH-IMM a CtsEntry {addr, size, rkey, tag, id} into S's
//    fifo[n % kFifoDepth] (n counts CTS sent; inline when it fits), imm = CTS|slot.
// 2. S copies fifo entries to per-tag queues as their completions arrive and gives
//    the slots back in batches: a zero-length WRITE-WITH-IMM, imm = CREDIT|count.
//    R never has more than kFifoDepth CTS unconsumed.
// 3. S matches isend(tag) to the oldest CTS of that tag and splits the message into
//    `parts` 128-byte-aligned pieces, one per QP (a part per extra QP for each
//    min_part bytes, up to --qps). Each part is RDMA WRITEs of at most the port's
//    max_msg_sz; the last WR of every part is a WRITE-WITH-IMM, imm = DATA|parts|id.
//    On QP 0, just before it, S writes a DataFooter {size, tag, id} into R's
//    footers[id % kMaxPending]: RC order makes it visible with that completion.
// 4. R completes the receive once `parts` DATA completions with its id arrived, and
//    checks the footer (tag, id, size <= posted): a mismatch is a protocol error.
//
// Every QP keeps receive WRs posted (WRITE-WITH-IMM consumes one; no buffers), and
// every control message carries an immediate, so a rank asleep on its completion
// channel wakes for a CTS or credit as for data.
#pragma once
#include <cstdint>

namespace ccb::verbs {

constexpr uint32_t kHelloMagic = 0x56424343;  // "CCBV"
constexpr uint16_t kWireVersion = 1;
constexpr int kMaxQps = 15;                   // parts fit in 4 immediate bits
constexpr uint32_t kFifoDepth = 64;
constexpr uint32_t kMaxPending = 8192;        // advertised, unfinished receives
constexpr uint32_t kPartAlign = 128;

struct CtsEntry {
  uint64_t addr;
  uint64_t size;
  uint32_t rkey;
  uint32_t tag;
  uint32_t id;
  uint32_t reserved;
};
static_assert(sizeof(CtsEntry) == 32);

struct DataFooter {
  uint64_t size;
  uint32_t tag;
  uint32_t id;
};
static_assert(sizeof(DataFooter) == 16);

// Immediate data: kind in bits 30-31.
enum class ImmKind : uint32_t { kData = 0, kCts = 1, kCredit = 2 };
constexpr uint32_t kIdMask = (1u << 24) - 1;

constexpr uint32_t imm_data(uint32_t id, uint32_t parts) { return (parts << 24) | (id & kIdMask); }
constexpr uint32_t imm_cts(uint32_t slot) { return (uint32_t(ImmKind::kCts) << 30) | slot; }
constexpr uint32_t imm_credit(uint32_t consumed) { return (uint32_t(ImmKind::kCredit) << 30) | (consumed & kIdMask); }
constexpr ImmKind imm_kind(uint32_t imm) { return static_cast<ImmKind>(imm >> 30); }
constexpr uint32_t imm_parts(uint32_t imm) { return (imm >> 24) & 0xf; }
constexpr uint32_t imm_low24(uint32_t imm) { return imm & kIdMask; }

// The handshake, sent by each side once per connection (native mode, over the
// TCP side channel that then stays open to tell that the peer is alive).
struct Endpoint {
  uint32_t magic;
  uint16_t version;
  uint16_t nqps;
  int32_t from_rank;
  int32_t to_rank;
  uint64_t token;
  uint8_t gid[16];
  uint16_t lid;
  uint8_t mtu;     // enum ibv_mtu
  uint8_t status;  // HandshakeStatus, in the acceptor's answer
  uint32_t psn;
  uint64_t ctrl_addr;
  uint32_t ctrl_rkey;
  uint32_t reserved;
  uint32_t qpn[16];
};
static_assert(sizeof(Endpoint) == 128);

// rdma_cm mode: the private data of each QP's connect request. It fits the 56 bytes
// an RC connect request may carry.
struct CmHello {
  uint32_t magic;
  uint16_t version;
  uint8_t qp_index;
  uint8_t nqps;
  int32_t from_rank;
  int32_t to_rank;
  uint64_t token;
  uint64_t ctrl_addr;
  uint32_t ctrl_rkey;
  uint32_t reserved;
};
static_assert(sizeof(CmHello) <= 56);

// The acceptor's private data, in ESTABLISHED and REJECTED alike.
struct CmAnswer {
  uint32_t magic;
  uint32_t status;  // HandshakeStatus
  uint64_t ctrl_addr;
  uint32_t ctrl_rkey;
  uint32_t reserved;
};
static_assert(sizeof(CmAnswer) == 24);

enum class HandshakeStatus : uint8_t { kOk = 0, kBadToken, kWrongRank, kBadQps, kBadVersion, kDuplicate };
constexpr uint8_t kLastHandshakeStatus = static_cast<uint8_t>(HandshakeStatus::kDuplicate);

}  // namespace ccb::verbs
