// How ranks find each other and agree: rank/size, an all-gather of small blobs and a
// barrier. Never used for collective data.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ccb {

// Watching a job for failures elsewhere; destroying it stops the watch.
class JobWatch {
 public:
  virtual ~JobWatch() = default;
};

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual std::vector<std::string> allgather(const std::string& mine) = 0;
  virtual void barrier() = 0;
  // The local address peers can reach us at, if the bootstrap knows one ("" if not).
  virtual std::string local_address_hint() const = 0;
  virtual std::string name() const = 0;  // "store", "mpi"
  // Calls on_failure once, from another thread, when the job fails elsewhere (a rank
  // failed or vanished, the store went away) while this rank is busy with something
  // else, such as waiting on a peer. Null when the bootstrap ends the job by itself.
  virtual std::unique_ptr<JobWatch> watch_job(std::function<void(const std::string&)> on_failure) {
    (void)on_failure;
    return nullptr;
  }
  // A failing rank calls this so the job ends now instead of waiting for it.
  virtual void abort_job(const std::string& why) noexcept { (void)why; }
};

}  // namespace ccb
