#include "transport/request_wait.h"

#include <sched.h>

#include "core/error.h"

namespace ccb {

void IdleTracker::pause(const std::function<std::string()>& waiting_for) {
  const bool spinning = policy_.spin.count() > 0;
  if (spinning && pauses_ < kPausesBeforeClock) {
    ++pauses_;
    if (policy_.yield) sched_yield();
    return;
  }
  const auto now = Clock::now();
  if (pauses_ <= kPausesBeforeClock) {  // the first clocked pause: the idle time counts from here
    pauses_ = kPausesBeforeClock + 1;
    since_ = now;
  }
  if (now < since_ + policy_.spin) {
    if (policy_.yield) sched_yield();
    return;
  }
  const auto deadline = since_ + policy_.timeout;
  if (now >= deadline) {
    ErrorContext ctx;
    ctx.rank = transport_.rank();
    ctx.transport = std::string(transport_.name());
    double secs = static_cast<double>(policy_.timeout.count()) / 1000.0;
    throw Error(ErrorKind::kTimeout,
                waiting_for() + " did not complete within " + std::to_string(secs).substr(0, 6) +
                    " s: the peer is stalled or gone (raise --timeout if it is only slow)",
                ctx);
  }
  auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - now);
  transport_.wait_for_progress(std::min(left, std::chrono::microseconds(10000)));
}

void RequestWaiter::wait(Request& r) {
  if (r.test()) return;
  IdleTracker idle(transport_, policy_);
  while (!r.test()) idle.pause([&r] { return r.describe(); });
}

void RequestWaiter::wait_all(std::vector<RequestPtr>& requests) {
  for (auto& r : requests)
    if (r) wait(*r);
  requests.clear();
}

}  // namespace ccb
