#include "transport/verbs/verbs_qp.h"

#include <cerrno>

#include "core/error.h"

namespace ccb::verbs {
namespace {

ErrorContext setup_context() { return {-1, -1, "verbs", "connect", errno, ""}; }

void modify(ibv_qp* qp, ibv_qp_attr& attr, int mask, const char* state) {
  if (int rc = ibv_modify_qp(qp, &attr, mask); rc != 0) {
    errno = rc;
    throw_errno(std::string("ibv_modify_qp to ") + state + " (qpn " + std::to_string(qp->qp_num) + ")", setup_context());
  }
}

}  // namespace

int cq_entries_for(int qps) { return qps * (kSendQueueDepth + kRecvQueueDepth) + 64; }

ibv_qp_init_attr rc_qp_attr(ibv_cq* cq) {
  ibv_qp_init_attr init{};
  init.send_cq = cq;
  init.recv_cq = cq;
  init.qp_type = IBV_QPT_RC;
  init.cap.max_send_wr = kSendQueueDepth;
  init.cap.max_recv_wr = kRecvQueueDepth;
  init.cap.max_send_sge = 1;
  init.cap.max_recv_sge = 1;
  init.cap.max_inline_data = sizeof(CtsEntry);
  return init;
}

QpPtr create_rc_qp(ibv_pd* pd, ibv_cq* cq, const PortChoice& port, uint32_t* max_inline) {
  ibv_qp_init_attr init = rc_qp_attr(cq);
  QpPtr qp(ibv_create_qp(pd, &init));
  if (!qp) {  // some devices inline nothing: the staging copy in ControlBlock is used then
    init.cap.max_inline_data = 0;
    qp.reset(ibv_create_qp(pd, &init));
  }
  if (!qp) throw_errno("ibv_create_qp (RC, " + std::to_string(kSendQueueDepth) + " send WRs)", setup_context());
  *max_inline = init.cap.max_inline_data;
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_INIT;
  attr.pkey_index = 0;
  attr.port_num = static_cast<uint8_t>(port.port);
  attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE;
  modify(qp.get(), attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, "INIT");
  post_receives(qp.get(), kRecvQueueDepth);
  return qp;
}

void post_receives(ibv_qp* qp, int count) {
  for (int i = 0; i < count; ++i) {
    ibv_recv_wr wr{}, *bad = nullptr;
    wr.wr_id = kRecvWrId;
    wr.num_sge = 0;  // WRITE-WITH-IMM lands by address; the receive only carries the immediate
    if (int rc = ibv_post_recv(qp, &wr, &bad); rc != 0) {
      errno = rc;
      throw_errno("ibv_post_recv (qpn " + std::to_string(qp->qp_num) + ")", {-1, -1, "verbs", "receive", rc, ""});
    }
  }
}

void connect_rc_qp(ibv_qp* qp, const PortChoice& port, const VerbsOptions& o, const RemoteQps& remote, size_t index) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTR;
  attr.path_mtu = std::min(port.attr.active_mtu, remote.mtu);
  attr.dest_qp_num = remote.qpn.at(index);
  attr.rq_psn = remote.psn;
  attr.max_dest_rd_atomic = 1;
  attr.min_rnr_timer = 12;
  attr.ah_attr.port_num = static_cast<uint8_t>(port.port);
  attr.ah_attr.sl = static_cast<uint8_t>(o.service_level);
  attr.ah_attr.dlid = remote.lid;
  if (port.attr.link_layer == IBV_LINK_LAYER_ETHERNET) {  // RoCE routes by GID; IB by LID
    attr.ah_attr.is_global = 1;
    attr.ah_attr.grh.dgid = remote.gid;
    attr.ah_attr.grh.sgid_index = static_cast<uint8_t>(port.gid_index);
    attr.ah_attr.grh.hop_limit = 64;
    attr.ah_attr.grh.traffic_class = static_cast<uint8_t>(o.traffic_class);
  }
  modify(qp, attr,
         IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
             IBV_QP_MIN_RNR_TIMER,
         "RTR");
  attr = {};
  attr.qp_state = IBV_QPS_RTS;
  attr.sq_psn = remote.psn;  // both sides use one PSN, agreed in the handshake
  attr.timeout = static_cast<uint8_t>(o.timeout);
  attr.retry_cnt = static_cast<uint8_t>(o.retry_count);
  attr.rnr_retry = static_cast<uint8_t>(o.rnr_retry);
  attr.max_rd_atomic = 1;
  modify(qp, attr,
         IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC,
         "RTS");
}

}  // namespace ccb::verbs
