// One peer over RC QPs: the data path of verbs_wire.h. Driven from the owning
// transport's progress(); every request is a VerbsOp shared with the connection.
#pragma once
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <vector>

#include "transport/transport.h"
#include "transport/verbs/verbs_options.h"
#include "transport/verbs/verbs_qp.h"

namespace ccb::verbs {

class VerbsTransport;

struct VerbsOp {
  bool is_send = false;
  uint32_t tag = 0;
  const VerbsMemoryRegion* mr = nullptr;
  size_t offset = 0, bytes = 0, moved = 0;
  bool complete = false;
  std::exception_ptr error;
  // receive side
  uint32_t id = 0, parts_seen = 0;
  // send side
  CtsEntry cts{};
  uint32_t parts = 0, parts_done = 0;
  size_t part_bytes = 0;
  std::vector<size_t> cursor;  // next byte of each part to post
  uint64_t op_id = 0;
};

class VerbsConnection final : public Connection {
 public:
  VerbsConnection(VerbsTransport& t, int peer, LinkResources res, const VerbsOptions& o);
  ~VerbsConnection() override;

  int peer() const override { return peer_; }
  RequestPtr isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override;
  RequestPtr irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override;

  bool poll();  // true when a completion arrived
  CompletionQueue& cq() { return *res_.cq; }
  int liveness_fd() const { return lost_ ? -1 : res_.link->liveness_fd(); }
  void check_liveness();
  void fail(const std::exception_ptr& e);

 private:
  RequestPtr start(std::shared_ptr<VerbsOp> op);
  void on_completion(const ibv_wc& wc);
  void on_send_completion(const ibv_wc& wc);
  void on_cts(uint32_t slot);
  void on_credit(uint32_t count);
  void on_data(uint32_t imm);
  void advertise_receives();
  void match_sends();
  void post_sends();
  bool post_part(VerbsOp& op, uint32_t part);
  void post_credit_if_due();
  void post(size_t qp, uint64_t wr_id, uint64_t laddr, uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey,
            const uint32_t* imm);
  bool room(size_t qp, int wrs) const { return sq_used_[qp] + wrs <= kSendQueueDepth; }
  size_t qp_index(uint32_t qp_num) const;
  [[noreturn]] void protocol_error(const std::string& what) const;
  ErrorContext context(const char* phase) const;

  VerbsTransport& transport_;
  int peer_;
  LinkResources res_;
  VerbsOptions opts_;
  std::vector<ibv_qp*> qps_;
  std::vector<int> sq_used_;
  std::exception_ptr failed_;
  bool lost_ = false;
  // receive side
  std::deque<std::shared_ptr<VerbsOp>> unadvertised_;
  std::vector<std::shared_ptr<VerbsOp>> pending_;  // by id % kMaxPending
  uint32_t next_id_ = 0;
  uint64_t cts_sent_ = 0, peer_consumed_ = 0;
  // send side
  std::map<uint32_t, std::deque<std::shared_ptr<VerbsOp>>> sends_by_tag_;
  std::map<uint32_t, std::deque<CtsEntry>> cts_by_tag_;
  std::deque<std::shared_ptr<VerbsOp>> active_;  // matched, not fully posted
  std::map<uint64_t, std::shared_ptr<VerbsOp>> in_flight_;
  uint64_t next_op_id_ = 1, cts_received_ = 0, credit_sent_ = 0;
  bool credit_due_ = false;
};

}  // namespace ccb::verbs
