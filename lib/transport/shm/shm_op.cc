#include "transport/shm/shm_op.h"

namespace ccb::shm {
namespace {

constexpr size_t kSpareOps = 64;
thread_local std::vector<ShmOpPtr> t_spare_ops;

}  // namespace

ShmOpPtr make_op(ShmOp::Kind kind, uint32_t tag, uint64_t seq, char* buf, size_t capacity, size_t total) {
  if (t_spare_ops.empty()) return std::make_shared<ShmOp>(kind, tag, seq, buf, capacity, total);
  ShmOpPtr op = std::move(t_spare_ops.back());
  t_spare_ops.pop_back();
  // recycle_op() left storage and error empty; the rest is set as the constructor would.
  op->kind = kind;
  op->tag = tag;
  op->seq = seq;
  op->buf = buf;
  op->capacity = capacity;
  op->total = total;
  op->done = 0;
  op->single_copy = false;
  op->address = 0;
  op->complete = false;
  return op;
}

void recycle_op(ShmOpPtr op) {
  if (!op || op.use_count() != 1 || t_spare_ops.size() >= kSpareOps) return;
  op->storage = {};  // an early message's copy goes now, not when the op is next used
  op->error = nullptr;
  t_spare_ops.push_back(std::move(op));
}

}  // namespace ccb::shm
