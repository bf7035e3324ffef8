// Framed messages of the bootstrap store: a fixed header with magic, version, type
// and length, checked before a byte of payload is read or allocated.
#pragma once
#include <cstdint>
#include <string>

#include "core/units.h"

namespace ccb::bootstrap {

constexpr uint32_t kFrameMagic = 0x53424343;  // "CCBS"
constexpr uint16_t kFrameVersion = 1;
constexpr uint32_t kMaxFramePayload = 64u << 20;

enum class FrameType : uint16_t {
  kHello = 1,   // payload: token (8 B) + rank (4 B)
  kSet = 2,     // key '\0' value
  kGet = 3,     // key; answered by kValue once the key exists
  kAdd = 4,     // key '\0' int64 delta; answered by kValue with the new total
  kValue = 5,
  kDone = 6,    // this rank leaves the job cleanly
  kError = 7,   // text
};

struct FrameHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t type;
  uint32_t length;
};
static_assert(sizeof(FrameHeader) == 12);

struct Frame {
  FrameType type;
  std::string payload;
};

// Validates a header; returns an empty string when it is fine, else why it is not.
std::string check_header(const FrameHeader& h);

void send_frame(int fd, FrameType type, const std::string& payload, Deadline deadline);
// False when the peer closed cleanly before a header; throws kProtocol on a bad frame.
bool recv_frame(int fd, Frame& out, Deadline deadline);

}  // namespace ccb::bootstrap
