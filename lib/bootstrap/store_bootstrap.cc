#include "bootstrap/store_bootstrap.h"

namespace ccb {

StoreBootstrap::StoreBootstrap(const LaunchInfo& info, std::chrono::milliseconds timeout,
                               bootstrap::JobFingerprint fingerprint)
    : rank_(info.rank), size_(info.world_size) {
  SockAddr master = resolve_host(info.master_addr, info.master_port);
  bootstrap::StoreHello hello{info.token, info.rank, info.job_label, std::move(fingerprint)};
  if (rank_ == 0) server_ = std::make_unique<bootstrap::StoreServer>(master, hello, size_);
  client_ = std::make_unique<bootstrap::StoreClient>(master, std::move(hello), timeout);
}

StoreBootstrap::~StoreBootstrap() {
  client_.reset();
  server_.reset();
}

std::vector<std::string> StoreBootstrap::allgather(const std::string& mine) {
  return bootstrap::split_gathered(client_->gather(round_++, mine, true), size_);
}

void StoreBootstrap::barrier() { client_->gather(round_++, {}, false); }

void StoreBootstrap::abort_job(const std::string& why) noexcept {
  client_->fail(why);  // the store tells every rank, so none waits out its timeout
  if (server_) server_->stop("rank 0 failed: " + why);
}

}  // namespace ccb
