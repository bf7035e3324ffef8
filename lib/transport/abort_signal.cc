#include "transport/abort_signal.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include "core/error.h"

namespace ccb {

AbortSignal::AbortSignal() : fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (!fd_) throw_errno("eventfd for abort()");
}

void AbortSignal::raise(const std::string& why) {
  std::call_once(once_, [&] {
    reason_ = why;
    raised_.store(true, std::memory_order_release);
    uint64_t one = 1;
    [[maybe_unused]] auto r = ::write(fd_.get(), &one, sizeof one);
  });
}

}  // namespace ccb
