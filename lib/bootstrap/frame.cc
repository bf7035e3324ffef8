#include "bootstrap/frame.h"

#include "core/error.h"
#include "transport/tcp/socket_util.h"

namespace ccb::bootstrap {

std::string check_header(const FrameHeader& h) {
  if (h.magic != kFrameMagic) return "bad magic (not a ccbench bootstrap peer)";
  if (h.version != kFrameVersion) return "protocol version " + std::to_string(h.version) + ", expected " + std::to_string(kFrameVersion);
  if (h.type < static_cast<uint16_t>(FrameType::kHello) || h.type > static_cast<uint16_t>(FrameType::kError))
    return "unknown frame type " + std::to_string(h.type);
  if (h.length > kMaxFramePayload) return "frame of " + std::to_string(h.length) + " B exceeds the limit";
  return {};
}

void send_frame(int fd, FrameType type, const std::string& payload, Deadline deadline) {
  if (payload.size() > kMaxFramePayload) throw_invalid("bootstrap message too large");
  FrameHeader h{kFrameMagic, kFrameVersion, static_cast<uint16_t>(type), static_cast<uint32_t>(payload.size())};
  std::string buf(reinterpret_cast<const char*>(&h), sizeof h);
  buf += payload;
  write_exact(fd, buf.data(), buf.size(), deadline);
}

bool recv_frame(int fd, Frame& out, Deadline deadline) {
  FrameHeader h{};
  if (!read_exact(fd, &h, sizeof h, deadline)) return false;
  if (std::string why = check_header(h); !why.empty())
    throw Error(ErrorKind::kProtocol, "bootstrap frame rejected: " + why);
  out.type = static_cast<FrameType>(h.type);
  out.payload.assign(h.length, '\0');
  if (h.length > 0 && !read_exact(fd, out.payload.data(), h.length, deadline))
    throw Error(ErrorKind::kPeerLost, "bootstrap peer closed mid-frame");
  return true;
}

}  // namespace ccb::bootstrap
