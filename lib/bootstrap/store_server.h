// The rendezvous store that rank 0 hosts: a key/value map over framed TCP, with
// blocking gets, counters, a job token and early failure when a rank vanishes.
#pragma once
#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "transport/tcp/socket_util.h"

namespace ccb::bootstrap {

class StoreServer {
 public:
  StoreServer(const SockAddr& bind, int world_size, uint64_t token);
  ~StoreServer();  // waits (bounded) for the connected ranks to leave, then stops
  StoreServer(const StoreServer&) = delete;
  StoreServer& operator=(const StoreServer&) = delete;

  void request_stop() { stop_ = true; }

 private:
  struct Client {
    Fd fd;
    int rank = -1;
    bool done = false;
  };
  void serve();
  void accept_client();
  bool handle(Client& c);  // false: drop the client
  void answer_waiters(const std::string& key);
  void fail_job(const std::string& why);
  void reply(Client& c, int type, const std::string& payload);

  int world_size_;
  uint64_t token_;
  Fd listener_;
  std::vector<Client> clients_;
  std::map<std::string, std::string> kv_;
  std::map<std::string, std::vector<int>> waiters_;  // key -> client fds
  std::string job_failure_;
  int departed_ = 0;
  std::atomic<int> connected_ranks_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace ccb::bootstrap
