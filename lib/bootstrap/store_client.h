// A rank's side of the rendezvous store: one connection, one request at a time, each
// answered in order (frame.h). Between requests a watcher thread looks at the
// connection: anything there came unasked, and it is the job's failure or the store's
// end, which this rank must hear even while it waits on a peer.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "bootstrap/bootstrap.h"
#include "bootstrap/frame.h"
#include "bootstrap/store_hello.h"
#include "core/error.h"
#include "net/socket_util.h"

namespace ccb::bootstrap {

class StoreClient {
 public:
  // Connects (retrying until the timeout: rank 0 may start later) and joins; throws
  // the store's refusal as it was given.
  StoreClient(const SockAddr& master, StoreHello hello, std::chrono::milliseconds timeout);
  ~StoreClient();  // says Done, so the store knows this rank left cleanly

  void set(const std::string& key, const std::string& value);
  std::string get(const std::string& key);  // waits until the key exists
  int64_t add(const std::string& key, int64_t delta);
  // Waits until every rank has sent its blob for this round; the answer holds them all
  // (split_gathered), or nothing for a barrier (return_all false).
  std::string gather(uint64_t round, const std::string& blob, bool return_all);
  void fail(const std::string& why) noexcept;  // this rank failed: the job ends now
  std::string local_ip() const;

  // Calls on_failure once, from its own thread, with the reason, when the job fails or
  // the store goes away while no request is outstanding.
  std::unique_ptr<JobWatch> watch(std::function<void(const std::string&)> on_failure);

 private:
  class Watcher;
  void request(FrameType type, const std::string& payload);
  std::string expect_value(const char* what, ErrorKind refusal = ErrorKind::kPeerLost);
  Deadline deadline() const { return Clock::now() + timeout_; }

  SockAddr master_;
  int rank_;
  std::chrono::milliseconds timeout_;
  Fd fd_;
  std::mutex io_;  // held for a whole request and its answer
};

}  // namespace ccb::bootstrap
