// Bootstrap over the TCP rendezvous store; rank 0 hosts the store.
#pragma once
#include <memory>

#include "bootstrap/bootstrap.h"
#include "bootstrap/launch_env.h"
#include "bootstrap/store_client.h"
#include "bootstrap/store_server.h"

namespace ccb {

class StoreBootstrap final : public Bootstrap {
 public:
  StoreBootstrap(const LaunchInfo& info, std::chrono::milliseconds timeout);
  ~StoreBootstrap() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> allgather(const std::string& mine) override;
  void barrier() override;
  std::string local_address_hint() const override { return client_->local_ip(); }
  std::string name() const override { return "store"; }
  void abort_job() noexcept override {
    if (server_) server_->request_stop();  // a failing rank 0 does not wait for the others
  }

 private:
  int rank_;
  int size_;
  uint64_t generation_ = 0;
  std::unique_ptr<bootstrap::StoreServer> server_;  // rank 0 only; outlives the client
  std::unique_ptr<bootstrap::StoreClient> client_;
};

}  // namespace ccb
