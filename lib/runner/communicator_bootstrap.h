// A bootstrap for one group of a job (--parallel's tp, pp or dp group): its rank and
// size are the group's, and it all-gathers and waits over the group's own connections.
// The job's store serves one thread per process and every rank of the job, so groups
// that run at the same time in one process cannot share it.
#pragma once
#include <string>
#include <vector>

#include "algo/communicator.h"
#include "bootstrap/bootstrap.h"

namespace ccb {

// Above every collective's tags (algo/collective.h), so a fast member's all-gather
// never matches a slow member's receive of a collective it is still in.
inline constexpr uint32_t kTagGroupBootstrap = 0xf0000000;
// What one member may all-gather: a rank report of a long run is a few hundred KiB.
inline constexpr uint64_t kMaxGroupBlobBytes = 64ull << 20;

class CommunicatorBootstrap final : public Bootstrap {
 public:
  explicit CommunicatorBootstrap(Communicator& comm) : comm_(comm) {}
  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }
  // Every member sends its length, then its bytes, to every other member.
  std::vector<std::string> allgather(const std::string& mine) override;
  void barrier() override { allgather({}); }
  std::string local_address_hint() const override { return {}; }
  std::string name() const override { return "group"; }

 private:
  Communicator& comm_;
};

}  // namespace ccb
