// libFuzzer target: a real store server on loopback, driven by up to four connections
// with whatever sequence of frames and bytes the input describes, including valid
// hellos so the paths of joined ranks are reached. Nothing may crash it, leak, or keep
// it from stopping.
//
// Input: a sequence of operations, each [op][connection][length][bytes...]:
//   op % 4 == 0: send `length` raw bytes;   1: send a frame of type bytes[0] % 10 with
//   the rest as payload;   2: say a good hello as rank bytes[0] % 3;   3: close it.
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "bootstrap/frame.h"
#include "bootstrap/local_launcher.h"
#include "bootstrap/store_server.h"
#include "core/error.h"

using namespace ccb;
using namespace ccb::bootstrap;

namespace {

constexpr int kWorld = 3;
constexpr uint64_t kToken = 7;

void send_all(const Fd& fd, const std::string& bytes) {
  if (fd) ::send(fd.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;
  StoreLimits quiet;
  quiet.log = false;
  StoreServer server(resolve_host("127.0.0.1", 0), StoreHello{kToken, 0, "", {}}, kWorld, quiet);
  Fd conns[4];
  size_t i = 0;
  while (i + 3 <= size) {
    const uint8_t op = data[i] % 4, which = data[i + 1] % 4;
    const size_t len = std::min<size_t>(data[i + 2], size - i - 3);
    std::string bytes(reinterpret_cast<const char*>(data + i + 3), len);
    i += 3 + len;
    Fd& c = conns[which];
    if (op == 3) {
      c.reset();
      continue;
    }
    if (!c) {
      try {
        c = connect_to(server.address(), Clock::now() + std::chrono::seconds(5), false);
      } catch (const Error&) {
        continue;
      }
    }
    if (op == 0) send_all(c, bytes);
    if (op == 1 && !bytes.empty())
      send_all(c, encode_header(static_cast<FrameType>(bytes[0] % 10), bytes.size() - 1) + bytes.substr(1));
    if (op == 2) {
      const int rank = bytes.empty() ? 1 : bytes[0] % kWorld;
      send_all(c, encode_frame(FrameType::kHello, encode_hello(StoreHello{kToken, rank, "", {}})));
    }
  }
  server.stop();  // reads what is still pending, then stops: it must, within its bounds
  return 0;
}
