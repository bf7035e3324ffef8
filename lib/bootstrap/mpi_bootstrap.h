// Bootstrap over MPI when started by mpirun: MPI carries addresses and barriers only,
// never collective data.
#pragma once
#include "bootstrap/bootstrap.h"

namespace ccb {

class MpiBootstrap final : public Bootstrap {
 public:
  MpiBootstrap();
  ~MpiBootstrap() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> allgather(const std::string& mine) override;
  void barrier() override;
  std::string local_address_hint() const override;
  std::string name() const override { return "mpi"; }
  void abort_job(const std::string& why) noexcept override;

 private:
  int rank_ = 0;
  int size_ = 1;
  bool we_initialized_ = false;
  bool all_on_one_node_ = true;
};

}  // namespace ccb
