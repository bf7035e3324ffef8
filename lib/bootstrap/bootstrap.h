// How ranks find each other and agree: rank/size, an all-gather of small blobs and a
// barrier. Never used for collective data.
#pragma once
#include <string>
#include <vector>

namespace ccb {

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
  // A failing rank calls this so the job ends instead of waiting for it.
  virtual void abort_job() noexcept {}
};

}  // namespace ccb
