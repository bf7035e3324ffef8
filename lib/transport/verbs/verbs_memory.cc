#include "transport/verbs/verbs_memory.h"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace ccb::verbs {
namespace {

constexpr int kAccess = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;

std::string memlock_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0) return "unknown";
  if (rl.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(rl.rlim_cur >> 10) + " KiB";
}

}  // namespace

MrPtr register_or_throw(ibv_pd* pd, void* base, size_t bytes, const std::string& device) {
  MrPtr mr(ibv_reg_mr(pd, base, bytes, kAccess));
  if (mr) return mr;
  int err = errno;
  std::string what = "ibv_reg_mr of " + std::to_string(bytes) + " B on " + device + " failed";
  if (err == ENOMEM || err == EPERM || err == EAGAIN)
    throw Error(ErrorKind::kInvalidArgument,
                what + " (" + std::strerror(err) + "): the locked-memory limit is " + memlock_limit() +
                    "; raise it with `ulimit -l unlimited` (memlock in /etc/security/limits.conf, "
                    "LimitMEMLOCK=infinity for systemd, --ulimit memlock=-1 for docker)",
                {-1, -1, "verbs", "register", err, ""});
  throw_errno(what, {-1, -1, "verbs", "register", err, ""});
}

std::shared_ptr<ibv_mr> RegistrationCache::acquire(void* base, size_t bytes) {
  char* start = static_cast<char*>(base);
  auto it = live_.upper_bound(start);
  if (it != live_.begin()) {
    --it;
    if (auto mr = it->second.lock()) {
      char* mr_start = static_cast<char*>(mr->addr);
      if (start + bytes <= mr_start + mr->length) return mr;
    }
  }
  if (bytes == 0) {  // nothing moves, but a key must exist: one small registration serves all
    if (!empty_) empty_ = acquire(empty_byte_, sizeof empty_byte_);
    return empty_;
  }
  MrPtr fresh = register_or_throw(pd_, base, bytes, device_);
  ++registrations_;
  std::shared_ptr<ibv_mr> shared(fresh.release(), [](ibv_mr* m) { ibv_dereg_mr(m); });
  for (auto i = live_.begin(); i != live_.end();) i = i->second.expired() ? live_.erase(i) : std::next(i);
  live_[start] = shared;
  return shared;
}

ControlBlock::ControlBlock(ibv_pd* pd, const std::string& device)
    : buffer_(sizeof(ControlLayout)), mr_(register_or_throw(pd, buffer_.data(), sizeof(ControlLayout), device)) {}

}  // namespace ccb::verbs
