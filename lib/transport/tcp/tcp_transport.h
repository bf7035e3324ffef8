// TCP sockets behind the Transport interface: N sockets per peer, an epoll engine
// driven by the caller's test()/wait (no helper thread), and a token-checked handshake.
#pragma once
#include <exception>
#include <map>
#include <vector>

#include "transport/abort_signal.h"
#include "net/socket_util.h"
#include "transport/tcp/tcp_options.h"
#include "transport/transport.h"

namespace ccb::tcp {

class TcpConnection;

// Judges the socket flags on this host before anything connects: --iface with --bind
// (they contradict), an interface or address this host lacks, a --tcp-cc the kernel
// lacks, a stream count out of range. Throws kInvalidArgument naming the flag.
void check_tcp_options(const TcpOptions& o);

class TcpTransport final : public Transport {
 public:
  // `advertise` is the address peers use when no --iface/--bind is given (for example
  // the local address that reaches the bootstrap store).
  TcpTransport(int rank, uint64_t token, TcpOptions opts, const std::string& advertise = "127.0.0.1",
               std::string name = "tcp");
  ~TcpTransport() override;

  std::string_view name() const override { return name_; }
  // The local end for errors: "eth0 10.0.0.2" ("10.0.0.2" when no interface holds it).
  const std::string& device() const { return device_; }
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
  void attach(TcpConnection& c);
  void detach(TcpConnection& c);
  void record_failure(std::exception_ptr e);
  void rethrow_failure() const;
  bool hold_unexpected(size_t bytes);
  void release_unexpected(size_t bytes) { unexpected_bytes_ -= bytes; }

 private:
  void poll_events(int timeout_ms);
  void accept_one(Deadline deadline);
  void prepare_data_socket(int fd) const;
  ErrorContext context(int peer, const char* phase) const;

  int rank_;
  uint64_t token_;
  TcpOptions opts_;
  std::string name_;
  SockAddr bound_;
  std::string device_;
  Fd listener_;
  Fd epoll_;
  AbortSignal abort_;
  std::vector<TcpConnection*> connections_;
  std::map<int, std::map<int, Fd>> arriving_;  // peer -> stream index -> socket
  std::exception_ptr failure_;
  size_t unexpected_bytes_ = 0;
};

}  // namespace ccb::tcp
