// A file descriptor that closes itself.
#pragma once
#include <cstdint>
#include <utility>

namespace ccb {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  void reset() noexcept;

 private:
  int fd_ = -1;
};

// Raises the soft limit on open descriptors to the hard one, as most servers do (a
// rank holds a socket per peer and stream); returns the limit now in force.
uint64_t raise_fd_limit();

}  // namespace ccb
