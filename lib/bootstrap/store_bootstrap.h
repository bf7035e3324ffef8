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
  // `fingerprint`: what every rank must agree on (store_hello.h); the job's identity
  // comes from `info`.
  StoreBootstrap(const LaunchInfo& info, std::chrono::milliseconds timeout, bootstrap::JobFingerprint fingerprint = {});
  ~StoreBootstrap() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> allgather(const std::string& mine) override;
  void barrier() override;
  std::string local_address_hint() const override { return client_->local_ip(); }
  std::string name() const override { return "store"; }
  std::unique_ptr<JobWatch> watch_job(std::function<void(const std::string&)> on_failure) override {
    return client_->watch(std::move(on_failure));
  }
  void abort_job(const std::string& why) noexcept override;

 private:
  int rank_;
  int size_;
  uint64_t round_ = 0;
  std::unique_ptr<bootstrap::StoreServer> server_;  // rank 0 only; outlives the client
  std::unique_ptr<bootstrap::StoreClient> client_;
};

}  // namespace ccb
