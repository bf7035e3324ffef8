#include "bootstrap/frame.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "net/socket_util.h"

namespace ccb::bootstrap {

std::string check_header(const FrameHeader& h, uint32_t max_payload) {
  if (h.magic != kFrameMagic) return "bad magic (not a ccbench bootstrap peer)";
  if (h.version != kFrameVersion)
    return "protocol version " + std::to_string(h.version) + ", expected " + std::to_string(kFrameVersion) +
           " (every rank needs the same ccbench)";
  if (h.type < static_cast<uint16_t>(FrameType::kHello) || h.type > static_cast<uint16_t>(FrameType::kFail))
    return "unknown frame type " + std::to_string(h.type);
  if (h.length > max_payload)
    return "frame of " + std::to_string(h.length) + " B exceeds the limit of " + std::to_string(max_payload) + " B";
  return {};
}

std::string encode_header(FrameType type, size_t payload_bytes) {
  if (payload_bytes > kMaxAnswerPayload) throw_invalid("bootstrap message too large");
  FrameHeader h{kFrameMagic, kFrameVersion, static_cast<uint16_t>(type), static_cast<uint32_t>(payload_bytes)};
  return std::string(reinterpret_cast<const char*>(&h), sizeof h);
}

std::string encode_frame(FrameType type, std::string_view payload) {
  std::string out = encode_header(type, payload.size());
  out.append(payload);
  return out;
}

bool FrameReader::next(Frame& out) {
  if (buf_.size() - start_ < sizeof(FrameHeader)) return false;
  FrameHeader h{};
  std::memcpy(&h, buf_.data() + start_, sizeof h);
  if (std::string why = check_header(h, max_payload_); !why.empty())
    throw Error(ErrorKind::kProtocol, "bootstrap frame rejected: " + why);
  if (buf_.size() - start_ - sizeof h < h.length) return false;
  out.type = static_cast<FrameType>(h.type);
  out.payload.assign(buf_, start_ + sizeof h, h.length);
  start_ += sizeof h + h.length;
  // Drop what was consumed once it is most of the buffer, so copying stays linear.
  if (start_ == buf_.size() || start_ > buf_.size() / 2) {
    buf_.erase(0, start_);
    start_ = 0;
  }
  return true;
}

void send_frame(int fd, FrameType type, std::string_view payload, Deadline deadline) {
  std::string buf = encode_frame(type, payload);
  write_exact(fd, buf.data(), buf.size(), deadline);
}

bool recv_frame(int fd, Frame& out, Deadline deadline, uint32_t max_payload) {
  FrameHeader h{};
  if (!read_exact(fd, &h, sizeof h, deadline)) return false;
  if (std::string why = check_header(h, max_payload); !why.empty())
    throw Error(ErrorKind::kProtocol, "bootstrap frame rejected: " + why);
  out.type = static_cast<FrameType>(h.type);
  out.payload.clear();
  constexpr size_t kStep = 1 << 20;  // grow with what arrives, never by the header's word
  while (out.payload.size() < h.length) {
    size_t have = out.payload.size(), n = std::min<size_t>(kStep, h.length - have);
    out.payload.resize(have + n);
    if (!read_exact(fd, out.payload.data() + have, n, deadline))
      throw Error(ErrorKind::kPeerLost, "bootstrap peer closed mid-frame");
  }
  return true;
}

}  // namespace ccb::bootstrap
