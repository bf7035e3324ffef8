// Waiting on requests: spin briefly (latency), then sleep in the transport's event
// engine (so oversubscribed ranks leave the CPU to their peers), never past a deadline.
#pragma once
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "transport/transport.h"

namespace ccb {

struct WaitPolicy {
  std::chrono::microseconds spin{50};
  std::chrono::milliseconds timeout{60000};
  // More ranks than CPUs on the host: each spin gives the CPU to whoever is runnable
  // (Open MPI's mpi_yield_when_idle), so the peer that would complete the wait runs
  // instead of waiting out the spinner's time slice or a wake through the socket.
  bool yield = false;
};

// For loops that test several requests: call reset() when something moved and
// pause() when nothing did. pause() throws kTimeout once `timeout` passes idle.
// The first kPausesBeforeClock pauses after a reset read no clock: a small message's
// wait is over in fewer, and a clock read would be a large part of each spin.
class IdleTracker {
 public:
  static constexpr unsigned kPausesBeforeClock = 256;

  IdleTracker(Transport& transport, WaitPolicy policy) : transport_(transport), policy_(policy) {}
  void reset() { pauses_ = 0; }
  void pause(const std::function<std::string()>& waiting_for);

 private:
  Transport& transport_;
  WaitPolicy policy_;
  unsigned pauses_ = 0;
  Clock::time_point since_;  // the first clocked pause after a reset
};

class RequestWaiter {
 public:
  RequestWaiter(Transport& transport, WaitPolicy policy) : transport_(transport), policy_(policy) {}

  void wait(Request& r);
  void wait_all(std::vector<RequestPtr>& requests);  // and clears them
  IdleTracker idle_tracker() const { return IdleTracker(transport_, policy_); }
  const WaitPolicy& policy() const { return policy_; }

 private:
  Transport& transport_;
  WaitPolicy policy_;
};

}  // namespace ccb
