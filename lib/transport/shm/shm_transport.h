// Shared memory between ranks of one host behind the Transport interface: one sealed
// memfd per pair, two rings in it, single-copy pulls for large messages where the kernel
// allows them, and no helper thread: the caller's test() and wait drive everything.
#pragma once
#include <map>
#include <vector>

#include "transport/abort_signal.h"
#include "transport/shm/shm_connection.h"
#include "transport/transport.h"

namespace ccb::shm {

class ShmTransport final : public Transport {
 public:
  ShmTransport(int rank, uint64_t token);
  ~ShmTransport() override;

  std::string_view name() const override { return "shm"; }
  int rank() const override { return rank_; }
  std::string listen_address() override;
  ConnectionPtr connect(int peer, const std::string& address, Deadline deadline) override;
  ConnectionPtr accept(int peer, Deadline deadline) override;
  MemoryRegionPtr register_memory(void* base, size_t bytes) override;
  void wait_for_progress(std::chrono::microseconds timeout) override;
  void abort(const std::string& why) override;
  std::string describe() const override;
  LinkInfo link() const override;

  // For connections and their requests.
  void progress();
  void attach(ShmConnection& c);
  void detach(ShmConnection& c);
  void record_failure(std::exception_ptr e);
  void rethrow_failure() const;

 private:
  void accept_one(Deadline deadline);
  void answer_hello(Fd socket, Deadline deadline);
  void poll_sockets(int timeout_ms);
  ErrorContext context(int peer, const char* phase) const;

  int rank_;
  uint64_t token_;
  std::string host_;
  std::string socket_name_;
  Fd listener_;
  Fd epoll_;
  AbortSignal abort_;
  volatile uint64_t probe_;  // read by peers with process_vm_readv: proof that they may
  std::vector<ShmConnection*> connections_;
  std::map<int, ShmPeer> arriving_;
  std::exception_ptr failure_;
  unsigned progress_calls_ = 0;
};

}  // namespace ccb::shm
