#include "core/fd.h"

#include <unistd.h>

namespace ccb {

void Fd::reset() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace ccb
