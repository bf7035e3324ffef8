// The host memory space: page-aligned anonymous mappings (AlignedBuffer), touched once
// at allocation so that no timed loop pays a first-touch fault.
#include "core/aligned_buffer.h"
#include "core/memory_space.h"

namespace ccb {
namespace {

class HostAllocation final : public SpaceBuffer::Allocation {
 public:
  explicit HostAllocation(size_t bytes) : buffer_(bytes) {}
  char* data() const override { return buffer_.data(); }
  size_t size() const override { return buffer_.size(); }

 private:
  AlignedBuffer buffer_;
};

class HostMemory final : public MemorySpace {
 public:
  std::string_view name() const override { return "host"; }
  std::string_view description() const override { return "page-aligned, touched before timing"; }
  bool host_accessible() const override { return true; }
  SpaceBuffer allocate(size_t bytes) const override { return SpaceBuffer(std::make_unique<HostAllocation>(bytes)); }
};

}  // namespace

const MemorySpace& host_memory() {
  static const HostMemory space;
  return space;
}

}  // namespace ccb
