#include "core/aligned_buffer.h"

#include <sys/mman.h>

#include <cstring>
#include <utility>

#include "core/error.h"

namespace ccb {

AlignedBuffer::AlignedBuffer(size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  constexpr size_t kHuge = 2u << 20;
  mapped_ = (bytes + kHuge - 1) / kHuge * kHuge;
  void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw_errno("cannot map " + std::to_string(bytes) + " bytes");
  // Transparent huge pages cut TLB misses on large buffers; a refusal is harmless.
  madvise(p, mapped_, MADV_HUGEPAGE);
  data_ = static_cast<char*>(p);
  std::memset(data_, 0, mapped_);
}

AlignedBuffer::~AlignedBuffer() { release(); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
      mapped_(std::exchange(o.mapped_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& o) noexcept {
  if (this != &o) {
    release();
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    mapped_ = std::exchange(o.mapped_, 0);
  }
  return *this;
}

void AlignedBuffer::release() noexcept {
  if (data_) munmap(data_, mapped_);
  data_ = nullptr;
}

}  // namespace ccb
