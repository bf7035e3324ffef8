// IPoIB: the TCP transport's socket engine bound to an IPoIB interface, reporting what
// runs underneath (mode, MTU, HCA and port) and taking utilization against the
// InfiniBand port's rate, not the netdev's.
#pragma once
#include "transport/ipoib/ipoib_interface.h"
#include "transport/tcp/tcp_options.h"
#include "transport/tcp/tcp_transport.h"

namespace ccb {

// The netdev's link with the InfiniBand port's rate and port_xmit_data counter (read
// under `root`) in place of the netdev's; as it is for a forced non-IPoIB netdev.
LinkInfo ipoib_link(const IpoibInterface& i, const std::string& root);

class IpoibTransport final : public Transport {
 public:
  // Binds to `chosen` (from choose_ipoib_interface); tcp.iface is replaced by it.
  IpoibTransport(int rank, uint64_t token, TcpOptions tcp, IpoibInterface chosen, std::string root = "/");

  std::string_view name() const override { return "ipoib"; }
  int rank() const override { return tcp_.rank(); }
  std::string listen_address() override { return tcp_.listen_address(); }
  ConnectionPtr connect(int peer, const std::string& address, Deadline deadline) override {
    return tcp_.connect(peer, address, deadline);
  }
  ConnectionPtr accept(int peer, Deadline deadline) override { return tcp_.accept(peer, deadline); }
  MemoryRegionPtr register_memory(void* base, size_t bytes) override { return tcp_.register_memory(base, bytes); }
  void wait_for_progress(std::chrono::microseconds timeout) override { tcp_.wait_for_progress(timeout); }
  void abort(const std::string& why) override { tcp_.abort(why); }
  std::string describe() const override;
  LinkInfo link() const override;

 private:
  static TcpOptions bound_to(TcpOptions o, const IpoibInterface& i);
  IpoibInterface iface_;
  std::string root_;
  tcp::TcpTransport tcp_;
};

}  // namespace ccb
