// A pair's segment in memory: a sealed memfd, mapped once and unmapped with its owner.
// A memfd has no name in /dev/shm or anywhere else: a stranger cannot open or plant it,
// and when both ranks are gone (kill -9 included) the kernel frees it.
#pragma once
#include <cstddef>

#include "core/fd.h"
#include "transport/shm/shm_ring.h"

namespace ccb::shm {

class MappedSegment {
 public:
  MappedSegment() = default;
  MappedSegment(void* base, size_t bytes) : base_(base), bytes_(bytes) {}
  ~MappedSegment();
  MappedSegment(MappedSegment&& o) noexcept;
  MappedSegment& operator=(MappedSegment&& o) noexcept;
  MappedSegment(const MappedSegment&) = delete;
  MappedSegment& operator=(const MappedSegment&) = delete;

  Segment& get() const { return *static_cast<Segment*>(base_); }

 private:
  void* base_ = nullptr;
  size_t bytes_ = 0;
};

// The creator's side: a new memfd of sizeof(Segment), sealed so that neither side can
// shrink it under the other's mapping (a shrink would turn the peer's reads into SIGBUS).
// Throws naming the memory needed when the host has too little.
struct CreatedSegment {
  Fd fd;
  MappedSegment map;
};
CreatedSegment create_segment(int rank, int peer);

// The other side: maps a memfd received from the peer, after checking that it is sealed
// against shrinking and has exactly the size and layout of this build.
MappedSegment adopt_segment(int fd, int rank, int peer);

}  // namespace ccb::shm
