// RC queue pairs: creation, the INIT -> RTR -> RTS walk, and the bundle of objects
// one connection owns (its CQ, control block and QPs, kept by a PeerLink).
#pragma once
#include <infiniband/verbs.h>

#include <memory>
#include <vector>

#include "transport/verbs/verbs_device.h"
#include "transport/verbs/verbs_memory.h"
#include "transport/verbs/verbs_options.h"
#include "transport/verbs/verbs_resources.h"

namespace ccb::verbs {

constexpr int kSendQueueDepth = 256;
constexpr int kRecvQueueDepth = 512;

// Where the other end of every QP of a connection is.
struct RemoteQps {
  ibv_gid gid{};
  uint16_t lid = 0;
  ibv_mtu mtu = IBV_MTU_1024;
  uint32_t psn = 0;
  std::vector<uint32_t> qpn;
};

// The QPs of one connection, and whatever keeps them alive and tells when the peer
// went away: the handshake socket (native) or the rdma_cm ids.
class PeerLink {
 public:
  virtual ~PeerLink() = default;
  virtual const std::vector<ibv_qp*>& qps() const = 0;
  virtual int liveness_fd() const = 0;   // readable (or hung up) when the peer leaves
  virtual bool peer_left() = 0;          // called when liveness_fd is readable
};

// What a connection owns, built before the handshake so the QPs can be described.
struct LinkResources {
  std::unique_ptr<CompletionQueue> cq;
  std::unique_ptr<ControlBlock> ctrl;
  std::unique_ptr<PeerLink> link;
  uint64_t peer_ctrl_addr = 0;
  uint32_t peer_ctrl_rkey = 0;
  uint32_t max_inline = 0;
  uint32_t max_wr_bytes = 1u << 30;
};

int cq_entries_for(int qps);
// Capabilities of every RC QP of ours (sizes of queues, inline for control writes).
ibv_qp_init_attr rc_qp_attr(ibv_cq* cq);
// An RC QP in INIT state with receives posted; `max_inline` gets what the device gave.
QpPtr create_rc_qp(ibv_pd* pd, ibv_cq* cq, const PortChoice& port, uint32_t* max_inline);
// A receive WR's id. A failed completion's opcode is undefined (only wr_id, status,
// qp_num and vendor_err are), so the id alone tells a receive from a write.
inline constexpr uint64_t kRecvWrId = 1ull << 62;
void post_receives(ibv_qp* qp, int count);
void connect_rc_qp(ibv_qp* qp, const PortChoice& port, const VerbsOptions& o, const RemoteQps& remote, size_t index);

}  // namespace ccb::verbs
