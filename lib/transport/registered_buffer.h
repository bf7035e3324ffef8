// Memory from a space, registered with one transport: what every collective buffer is.
// The registration goes before the memory (members in that order), so verbs never
// holds an MR over pages that are unmapped.
#pragma once
#include <cstddef>
#include <utility>

#include "core/memory_space.h"
#include "transport/transport.h"

namespace ccb {

class RegisteredBuffer {
 public:
  RegisteredBuffer() = default;
  RegisteredBuffer(const MemorySpace& space, Transport& transport, size_t bytes)
      : memory_(space.allocate(bytes)), region_(transport.register_memory(memory_.data(), memory_.size())) {}
  RegisteredBuffer(RegisteredBuffer&&) noexcept = default;
  // The old registration goes before the old memory, as in the destructor.
  RegisteredBuffer& operator=(RegisteredBuffer&& o) noexcept {
    region_.reset();
    memory_ = std::move(o.memory_);
    region_ = std::move(o.region_);
    return *this;
  }
  ~RegisteredBuffer() { region_.reset(); }

  const MemoryRegion& region() const { return *region_; }
  MemoryRegion* get() const { return region_.get(); }
  char* data() const { return memory_.data(); }
  size_t size() const { return memory_.size(); }
  explicit operator bool() const { return region_ != nullptr; }

 private:
  SpaceBuffer memory_;
  MemoryRegionPtr region_;
};

}  // namespace ccb
