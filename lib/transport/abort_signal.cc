#include "transport/abort_signal.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/error.h"

namespace ccb {

AbortSignal::AbortSignal() : fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (!fd_) throw_errno("eventfd for abort()");
}

Fd AbortSignal::epoll_watching_this(const ErrorContext& ctx) const {
  Fd epoll(epoll_create1(EPOLL_CLOEXEC));
  if (!epoll) throw_errno("epoll_create1", ctx);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;
  if (epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd_.get(), &ev) != 0) throw_errno("epoll_ctl for abort()", ctx);
  return epoll;
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
