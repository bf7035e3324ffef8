// Where a rank's collective buffers live: the one seam through which the runner, the
// communicator's scratch and the two-level collectives' staging allocate the memory
// that the transports then register.
//
// Host memory is the only space today. A device space (CUDA, ROCm) is one more file
// that implements MemorySpace and one row in memory_space.cc's table; the flag, the
// record and the error for an unknown name follow from the table.
//
// What a space promises:
//  - allocate() returns zeroed memory of at least the bytes asked, aligned to a page,
//    owned by the SpaceBuffer it returns (freed when that is destroyed or moved over).
//  - host_accessible(): host code may read and write the bytes directly. The reduction
//    kernels, the copies inside the algorithms, and the fill and check all do so today,
//    so a run refuses a space without it (see require_host_accessible); a device space
//    that is not mapped for the host also has to bring those paths with it.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ccb {

// One allocation in some space; move-only, freed by the space that made it.
class SpaceBuffer {
 public:
  class Allocation {
   public:
    virtual ~Allocation() = default;
    virtual char* data() const = 0;
    virtual size_t size() const = 0;
  };

  SpaceBuffer() = default;
  explicit SpaceBuffer(std::unique_ptr<Allocation> a) : allocation_(std::move(a)) {}
  char* data() const { return allocation_ ? allocation_->data() : nullptr; }
  size_t size() const { return allocation_ ? allocation_->size() : 0; }
  explicit operator bool() const { return allocation_ != nullptr; }

 private:
  std::unique_ptr<Allocation> allocation_;
};

class MemorySpace {
 public:
  virtual ~MemorySpace() = default;
  virtual std::string_view name() const = 0;          // "host"; what --memory and the record say
  virtual std::string_view description() const = 0;  // one line for --help
  virtual bool host_accessible() const = 0;
  // Throws Error (kResource, with errno) when the space cannot give `bytes`.
  virtual SpaceBuffer allocate(size_t bytes) const = 0;
};

const MemorySpace& host_memory();
// The space of that name; throws kInvalidArgument naming the spaces this build has.
const MemorySpace& memory_space(std::string_view name);
// Every space this build has, in the order help and errors list them.
std::vector<std::string> memory_space_names();
// Throws kInvalidArgument when host code cannot touch `space`'s bytes, naming the fix.
void require_host_accessible(const MemorySpace& space);

}  // namespace ccb
