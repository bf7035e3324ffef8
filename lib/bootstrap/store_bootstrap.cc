#include "bootstrap/store_bootstrap.h"

namespace ccb {

StoreBootstrap::StoreBootstrap(const LaunchInfo& info, std::chrono::milliseconds timeout)
    : rank_(info.rank), size_(info.world_size) {
  SockAddr master = resolve_host(info.master_addr, info.master_port);
  if (rank_ == 0) {
    SockAddr bind = master;
    server_ = std::make_unique<bootstrap::StoreServer>(bind, size_, info.token);
  }
  client_ = std::make_unique<bootstrap::StoreClient>(master, rank_, info.token, timeout);
}

StoreBootstrap::~StoreBootstrap() {
  client_.reset();
  server_.reset();
}

std::vector<std::string> StoreBootstrap::allgather(const std::string& mine) {
  const std::string prefix = "ag/" + std::to_string(generation_++) + "/";
  client_->set(prefix + std::to_string(rank_), mine);
  std::vector<std::string> all(size_);
  for (int r = 0; r < size_; ++r) all[r] = r == rank_ ? mine : client_->get(prefix + std::to_string(r));
  return all;
}

void StoreBootstrap::barrier() {
  const std::string key = "barrier/" + std::to_string(generation_++);
  if (client_->add(key, 1) == size_) client_->set(key + "/open", "");
  else client_->get(key + "/open");
}

}  // namespace ccb
