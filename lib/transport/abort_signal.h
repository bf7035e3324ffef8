// Transport::abort() support: the only call that may come from another thread. It sets
// a flag the owning thread checks on progress and wakes that thread's sleep through an
// eventfd it polls alongside its sockets or completion channel.
#pragma once
#include <atomic>
#include <mutex>
#include <string>

#include "core/error.h"
#include "core/fd.h"

namespace ccb {

class AbortSignal {
 public:
  AbortSignal();
  void raise(const std::string& why);  // any thread; the first reason wins
  bool raised() const { return raised_.load(std::memory_order_acquire); }
  const std::string& reason() const { return reason_; }  // once raised()
  int fd() const { return fd_.get(); }
  // An epoll set that already watches this signal (as a null data.ptr), for a transport
  // that sleeps in epoll over its sockets.
  Fd epoll_watching_this(const ErrorContext& ctx) const;

 private:
  Fd fd_;
  std::once_flag once_;
  std::string reason_;
  std::atomic<bool> raised_{false};
};

}  // namespace ccb
