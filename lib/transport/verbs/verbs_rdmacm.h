// The rdma_cm way to connect (--ib-cm rdmacm): peers are addressed by the IP of the
// RDMA device's netdev, QPs are created and moved to RTS by librdmacm, one cm id per
// QP. Our own hello travels in the connect request's private data.
#pragma once
#include <rdma/rdma_cma.h>

#include <map>
#include <memory>
#include <utility>

#include "transport/verbs/verbs_link.h"

namespace ccb::verbs {

struct CmChannelDeleter {
  void operator()(rdma_event_channel* c) const noexcept { rdma_destroy_event_channel(c); }
};
using CmChannelPtr = std::unique_ptr<rdma_event_channel, CmChannelDeleter>;

// One rdma_cm id and the QP librdmacm made on it.
class CmId {
 public:
  CmId() = default;
  explicit CmId(rdma_cm_id* id) : id_(id) {}
  ~CmId();
  CmId(CmId&& o) noexcept : id_(std::exchange(o.id_, nullptr)) {}
  CmId& operator=(CmId&& o) noexcept;
  rdma_cm_id* get() const { return id_; }

 private:
  rdma_cm_id* id_ = nullptr;
};

class RdmaCmLinkMaker final : public LinkMaker {
 public:
  // Binds a listening id to the IPv4 address behind the device's GID.
  RdmaCmLinkMaker(const DeviceHandles& h, const std::string& advertise);
  ~RdmaCmLinkMaker() override;
  ibv_context* context() const { return listen_.get()->verbs; }

  std::string listen_address() override { return address_; }
  LinkResources connect(int peer, const std::string& address, Deadline deadline) override;
  LinkResources accept(int peer, Deadline deadline) override;
  std::string describe() const override { return "cm=rdmacm"; }

 private:
  struct Arrival;
  rdma_cm_event* next_event(Deadline deadline, int peer);
  void on_connect_request(rdma_cm_event* ev);
  void on_passive_event(rdma_cm_event* ev);
  void set_options(rdma_cm_id* id) const;
  ErrorContext ctx(int peer) const { return {h_.rank, peer, "verbs", "rdma_cm connect", 0, h_.port.short_name()}; }

  const DeviceHandles& h_;
  CmChannelPtr channel_;
  CmId listen_;
  std::string address_;
  std::map<int, std::unique_ptr<Arrival>> arrivals_;
  std::map<rdma_cm_id*, int> passive_ids_;  // accepted, waiting for ESTABLISHED
};

}  // namespace ccb::verbs
