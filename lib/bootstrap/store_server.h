// The rendezvous store that rank 0 hosts: one thread that never blocks on a peer. An
// epoll loop serves non-blocking sockets, each with its own partial frame and output
// queue; StoreState keeps the books. A connection that has not joined by its hello
// deadline is closed, and so is the oldest such one when too many wait, so strangers
// cost the job nothing: neither a stall, nor memory beyond a hello, nor a crash. When
// a rank leaves without finishing, or says it failed, every rank is told at once.
#pragma once
#include <sys/epoll.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "bootstrap/frame.h"
#include "bootstrap/store_state.h"
#include "net/socket_util.h"

namespace ccb::bootstrap {

struct StoreLimits {
  std::chrono::milliseconds hello_timeout{5000};  // to join, from the connection's accept
  size_t max_strangers = 256;                     // connections not joined yet
  std::chrono::milliseconds linger{30000};        // rank 0 done: how long the others get to leave
  bool log = true;                                // refusals and failures to rank 0's stderr
};

class StoreServer {
 public:
  StoreServer(const SockAddr& bind, StoreHello owner, int world_size, StoreLimits limits = {});
  ~StoreServer();  // waits (up to linger) for the connected ranks to leave, then stops
  StoreServer(const StoreServer&) = delete;
  StoreServer& operator=(const StoreServer&) = delete;

  // Stops soon, from any thread. With a reason, the job fails first and every rank is
  // told why (what is queued gets a second to leave).
  void stop(const std::string& failure = "");
  SockAddr address() const { return address_; }

 private:
  struct Piece {
    std::shared_ptr<const std::string> data;
    size_t offset = 0;
  };
  struct Connection {
    Fd fd;
    FrameReader reader{kMaxHelloPayload};
    std::deque<Piece> out;
    Clock::time_point deadline;  // to join, or to finish sending before it is closed
    bool joined = false, closing = false, writing = false;
  };

  void serve();
  void serve_once(int timeout_ms);
  void accept_pending();
  bool evict_oldest_stranger();
  void read_from(ClientId id);
  void flush(ClientId id);
  void apply(StoreActions& a);
  void reap();
  void expire();
  void watch(ClientId id, Connection& c, bool writing);
  void log(const std::string& line);
  bool output_pending() const;

  StoreLimits limits_;
  StoreState state_;
  Fd listener_, epoll_;
  SockAddr address_;
  std::map<ClientId, Connection> conns_;
  std::set<ClientId> strangers_;   // not joined, in accept order
  std::set<ClientId> closing_;    // refused or done: closed once their answers are sent
  std::set<ClientId> to_close_;
  ClientId next_id_ = 1;
  Clock::time_point accept_paused_until_{};
  int log_lines_ = 0;
  std::mutex stop_mutex_;
  std::string stop_failure_;
  std::atomic<bool> stop_requested_{false};
  std::atomic<int> connected_ranks_{0};
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

}  // namespace ccb::bootstrap
