// Memory registration: a cache so a benchmark loop never re-registers, a region type
// that carries the keys, and the per-connection control block of the wire protocol.
#pragma once
#include <infiniband/verbs.h>

#include <map>
#include <memory>
#include <string>

#include "core/aligned_buffer.h"
#include "transport/transport.h"
#include "transport/verbs/verbs_resources.h"
#include "transport/verbs/verbs_wire.h"

namespace ccb::verbs {

class VerbsMemoryRegion final : public MemoryRegion {
 public:
  VerbsMemoryRegion(void* base, size_t bytes, std::shared_ptr<ibv_mr> mr)
      : MemoryRegion(base, bytes), mr_(std::move(mr)) {}
  uint32_t lkey() const { return mr_->lkey; }
  uint32_t rkey() const { return mr_->rkey; }

 private:
  std::shared_ptr<ibv_mr> mr_;
};

// Registrations are shared by every region inside them and released with the last
// one, so a freed and reused address range never meets a stale registration.
class RegistrationCache {
 public:
  RegistrationCache(ibv_pd* pd, std::string device) : pd_(pd), device_(std::move(device)) {}
  std::shared_ptr<ibv_mr> acquire(void* base, size_t bytes);
  size_t registrations() const { return registrations_; }  // ibv_reg_mr calls so far

 private:
  ibv_pd* pd_;
  std::string device_;
  std::map<char*, std::weak_ptr<ibv_mr>> live_;  // by start address
  char empty_byte_[64] = {};
  std::shared_ptr<ibv_mr> empty_;
  size_t registrations_ = 0;
};

// Registers memory or throws, naming the memlock limit when that is the likely cause.
MrPtr register_or_throw(ibv_pd* pd, void* base, size_t bytes, const std::string& device);

// The remotely written half of the protocol state, plus staging for what this side
// writes to the peer (used when the device cannot send it inline).
struct ControlLayout {
  CtsEntry fifo[kFifoDepth];
  DataFooter footers[kMaxPending];
  CtsEntry out_cts[kFifoDepth];
  DataFooter out_footers[kMaxPending];
};

class ControlBlock {
 public:
  ControlBlock(ibv_pd* pd, const std::string& device);
  ControlLayout& layout() const { return *reinterpret_cast<ControlLayout*>(buffer_.data()); }
  uint64_t addr() const { return reinterpret_cast<uintptr_t>(buffer_.data()); }
  uint32_t lkey() const { return mr_->lkey; }
  uint32_t rkey() const { return mr_->rkey; }

 private:
  AlignedBuffer buffer_;
  MrPtr mr_;
};

}  // namespace ccb::verbs
