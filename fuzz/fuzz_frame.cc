// libFuzzer target: the bootstrap store's frame reader fed arbitrary bytes, as a rogue
// peer would send them. Anything but a clean Frame or a ccb::Error is a bug.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "bootstrap/frame.h"
#include "core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 60000) return 0;  // one pipe buffer, so the write never blocks
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return 0;
  if (write(fds[1], data, size) != static_cast<ssize_t>(size)) return 0;
  close(fds[1]);
  try {
    ccb::bootstrap::Frame f;
    const auto deadline = ccb::Clock::now() + std::chrono::seconds(1);
    while (ccb::bootstrap::recv_frame(fds[0], f, deadline)) {
    }
  } catch (const ccb::Error&) {
  }
  close(fds[0]);
  return 0;
}
