// RAII for every ibv_* object the transport creates: each handle frees itself, in
// reverse order of creation when members are declared in creation order.
#pragma once
#include <infiniband/verbs.h>

#include <memory>
#include <string>

namespace ccb::verbs {

template <typename T, int (*Destroy)(T*)>
struct Destroyer {
  void operator()(T* p) const noexcept {
    if (p) Destroy(p);
  }
};

using ContextPtr = std::unique_ptr<ibv_context, Destroyer<ibv_context, ibv_close_device>>;
using PdPtr = std::unique_ptr<ibv_pd, Destroyer<ibv_pd, ibv_dealloc_pd>>;
using ChannelPtr = std::unique_ptr<ibv_comp_channel, Destroyer<ibv_comp_channel, ibv_destroy_comp_channel>>;
using QpPtr = std::unique_ptr<ibv_qp, Destroyer<ibv_qp, ibv_destroy_qp>>;
using MrPtr = std::unique_ptr<ibv_mr, Destroyer<ibv_mr, ibv_dereg_mr>>;

// Events are acknowledged as they are read (ibv_ack_cq_events), so destruction never waits.
class CompletionQueue {
 public:
  CompletionQueue(ibv_context* ctx, int entries, ibv_comp_channel* channel);
  ~CompletionQueue();
  CompletionQueue(const CompletionQueue&) = delete;
  CompletionQueue& operator=(const CompletionQueue&) = delete;
  ibv_cq* get() const { return cq_; }
  void arm();  // ibv_req_notify_cq, before each sleep on the channel

 private:
  ibv_cq* cq_ = nullptr;
};

struct DeviceListDeleter {
  void operator()(ibv_device** list) const noexcept { ibv_free_device_list(list); }
};
using DeviceList = std::unique_ptr<ibv_device*[], DeviceListDeleter>;

// The GID in the usual text form ("::ffff:192.0.2.1", "fe80::...").
std::string gid_to_string(const ibv_gid& gid);
bool gid_is_ipv4_mapped(const ibv_gid& gid);

}  // namespace ccb::verbs
