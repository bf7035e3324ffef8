// RDMA over RC queue pairs behind the Transport interface (InfiniBand and RoCE).
// Progress runs in the caller's thread: test() polls the connections' CQs; waits
// sleep on the completion channel (event mode) or spin (poll mode).
#pragma once
#include <exception>
#include <vector>

#include "core/units.h"
#include "transport/abort_signal.h"
#include "transport/transport.h"
#include "transport/verbs/verbs_link.h"
#include "transport/verbs/verbs_memory.h"
#include "transport/verbs/verbs_options.h"

namespace ccb::verbs {

class VerbsConnection;

class VerbsTransport final : public Transport {
 public:
  VerbsTransport(int rank, uint64_t token, VerbsOptions opts, const std::string& advertise = "127.0.0.1");
  ~VerbsTransport() override;

  std::string_view name() const override { return "verbs"; }
  int rank() const override { return handles_.rank; }
  std::string listen_address() override { return links_->listen_address(); }
  ConnectionPtr connect(int peer, const std::string& address, Deadline deadline) override;
  ConnectionPtr accept(int peer, Deadline deadline) override;
  MemoryRegionPtr register_memory(void* base, size_t bytes) override;
  void wait_for_progress(std::chrono::microseconds timeout) override;
  void abort(const std::string& why) override;
  std::string describe() const override;
  LinkInfo link() const override { return verbs_link(handles_.port); }

  const PortChoice& port() const { return handles_.port; }
  size_t registrations() const { return cache_->registrations(); }

  // For connections and their requests.
  bool progress();
  void attach(VerbsConnection& c) { connections_.push_back(&c); }
  void detach(VerbsConnection& c);
  void record_failure(const std::exception_ptr& e) {
    if (!failure_) failure_ = e;
  }

 private:
  void rethrow_failure() const;
  void sleep_on_channel(std::chrono::microseconds timeout);
  void check_liveness(int timeout_ms);
  void read_channel_events();

  ContextPtr owned_context_;
  DeviceHandles handles_;
  PdPtr pd_;
  ChannelPtr channel_;
  std::unique_ptr<LinkMaker> links_;
  std::unique_ptr<RegistrationCache> cache_;
  AbortSignal abort_;
  std::vector<VerbsConnection*> connections_;
  std::exception_ptr failure_;
  Clock::time_point next_liveness_check_{};
};

}  // namespace ccb::verbs
