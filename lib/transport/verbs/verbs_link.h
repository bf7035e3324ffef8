// How the QPs of a new connection meet their peer's. Two ways: a TCP handshake that
// exchanges QPN/PSN/GID/LID/MTU (native), or librdmacm (rdma_cm addressing).
#pragma once
#include <string>

#include "core/units.h"
#include "transport/abort_signal.h"
#include "transport/verbs/verbs_qp.h"
#include "transport/verbs/verbs_wire.h"

namespace ccb::verbs {

// What every connection of a transport shares.
struct DeviceHandles {
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  ibv_comp_channel* channel = nullptr;  // null in poll mode
  PortChoice port;
  VerbsOptions opts;
  int rank = -1;
  uint64_t token = 0;
  const AbortSignal* abort = nullptr;  // the transport's: set up ends early once raised
};

// Throws kAborted once the transport was aborted (the job failed elsewhere), so that
// no rank waits out its timeout for a peer that will never come.
void throw_if_aborted(const DeviceHandles& h, int peer);

// A CQ and control block for a new connection (its QPs come from the link maker).
LinkResources new_link_resources(const DeviceHandles& h);

class LinkMaker {
 public:
  virtual ~LinkMaker() = default;
  virtual std::string listen_address() = 0;
  virtual LinkResources connect(int peer, const std::string& address, Deadline deadline) = 0;
  virtual LinkResources accept(int peer, Deadline deadline) = 0;
  virtual std::string describe() const = 0;
};

// Native: a token-checked TCP handshake on `advertise`; the socket then stays open so
// that a dead peer is noticed at once (RC alone only notices when a send times out).
std::unique_ptr<LinkMaker> make_native_link_maker(const DeviceHandles& h, const std::string& advertise);

}  // namespace ccb::verbs
