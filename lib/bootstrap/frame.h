// Framed messages of the bootstrap store: a fixed header with magic, version, type and
// length, checked before a byte of payload is read. Memory grows with the bytes that
// have arrived, never with what a header announces, so a stranger's header that
// promises 64 MiB costs nothing; and before a hello only a hello-sized frame is taken.
//
// A conversation: the rank sends kHello (store_hello.h) and gets kValue "ok" or kError
// with the reason. Then requests, each answered in order: kSet (no answer), kGet,
// kAdd, kGather (answered once every rank has sent its part), kDone (no answer, sent
// last), kFail (no answer: this rank failed). When the job fails, the store also sends
// kError unasked to every rank: a rank with no request outstanding watches for it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/units.h"

namespace ccb::bootstrap {

constexpr uint32_t kFrameMagic = 0x53424343;  // "CCBS"
constexpr uint16_t kFrameVersion = 2;
constexpr uint32_t kMaxFramePayload = 64u << 20;    // from a rank that has joined
constexpr uint32_t kMaxHelloPayload = 16u << 10;    // from anyone else
constexpr uint32_t kMaxAnswerPayload = 1u << 30;    // from the store: a gather of every rank

enum class FrameType : uint16_t {
  kHello = 1,   // StoreHello
  kSet = 2,     // key '\0' value
  kGet = 3,     // key; answered by kValue once the key exists
  kAdd = 4,     // key '\0' int64 delta; answered by kValue with the new total
  kValue = 5,
  kDone = 6,    // this rank leaves the job cleanly
  kError = 7,   // text
  kGather = 8,  // u64 round, u8 return_all, blob; see store_state.h
  kFail = 9,    // text: why this rank failed
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
std::string check_header(const FrameHeader& h, uint32_t max_payload = kMaxFramePayload);
std::string encode_frame(FrameType type, std::string_view payload);
std::string encode_header(FrameType type, size_t payload_bytes);  // for a payload sent apart

// Cuts a byte stream into frames, for a reader that never blocks on one peer.
class FrameReader {
 public:
  explicit FrameReader(uint32_t max_payload) : max_payload_(max_payload) {}
  void set_max_payload(uint32_t n) { max_payload_ = n; }
  void feed(const char* data, size_t n) { buf_.append(data, n); }
  // Takes the next whole frame, if one has arrived; throws kProtocol on a bad header.
  bool next(Frame& out);
  bool mid_frame() const { return buf_.size() > start_; }

 private:
  uint32_t max_payload_;
  std::string buf_;
  size_t start_ = 0;  // where the next frame begins in buf_
};

// Blocking helpers for the ranks' side: send_frame writes one whole frame; recv_frame
// is false when the peer closed cleanly before a header, and throws kProtocol on a bad
// frame and kTimeout at the deadline.
void send_frame(int fd, FrameType type, std::string_view payload, Deadline deadline);
bool recv_frame(int fd, Frame& out, Deadline deadline, uint32_t max_payload = kMaxFramePayload);

}  // namespace ccb::bootstrap
