// A rank's side of the rendezvous store.
#pragma once
#include <cstdint>
#include <string>

#include "transport/tcp/socket_util.h"

namespace ccb::bootstrap {

class StoreClient {
 public:
  StoreClient(const SockAddr& master, int rank, uint64_t token, std::chrono::milliseconds timeout);
  ~StoreClient();  // says Done, so the server knows this rank left cleanly

  void set(const std::string& key, const std::string& value);
  std::string get(const std::string& key);  // waits until the key exists
  int64_t add(const std::string& key, int64_t delta);
  std::string local_ip() const;

 private:
  std::string expect_value(const char* what);
  Deadline deadline() const { return Clock::now() + timeout_; }

  SockAddr master_;
  int rank_;
  std::chrono::milliseconds timeout_;
  Fd fd_;
};

}  // namespace ccb::bootstrap
