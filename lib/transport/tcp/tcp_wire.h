// The TCP transport's wire format (little-endian hosts). Every data chunk on every
// stream starts with a ChunkHeader; a connection starts with Hello/HelloAck per stream.
//
// A message (peer, tag, seq) of `total` bytes is cut into chunks of at least
// `min_chunk` bytes spread round-robin over the connection's streams; each chunk says
// where it lands (`offset`), so chunks of one message may arrive in any order.
// `seq` counts messages per (direction, tag): that is how per-tag order is kept.
// A chunk whose receive is not posted yet is buffered when its message is small
// (<= TcpOptions::eager_limit); otherwise it stays in the socket until the receive is
// posted, which stalls the sender through TCP flow control (a rendezvous for free).
#pragma once
#include <cstdint>

namespace ccb::tcp {

constexpr uint32_t kChunkMagic = 0x43424343;  // "CCBC"
constexpr uint32_t kHelloMagic = 0x48424343;  // "CCBH"
constexpr uint16_t kWireVersion = 1;
// Hostile-peer limits: a header above these is a protocol error, never an allocation.
constexpr uint64_t kMaxMessageBytes = 1ull << 40;

struct ChunkHeader {
  uint32_t magic;
  uint32_t tag;
  uint64_t seq;
  uint64_t total;
  uint64_t offset;
  uint32_t len;
  uint32_t reserved;
};
static_assert(sizeof(ChunkHeader) == 40);

struct Hello {
  uint32_t magic;
  uint16_t version;
  uint16_t stream;
  uint16_t nstreams;
  uint16_t reserved;
  int32_t from_rank;
  int32_t to_rank;
  uint32_t pad;
  uint64_t token;
};
static_assert(sizeof(Hello) == 32);

enum class HelloStatus : uint32_t { kOk = 0, kBadToken = 1, kWrongRank = 2, kBadStreams = 3, kBadVersion = 4 };

struct HelloAck {
  uint32_t magic;
  uint32_t status;
};

}  // namespace ccb::tcp
