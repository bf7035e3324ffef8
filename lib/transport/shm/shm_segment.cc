#include "transport/shm/shm_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <new>
#include <utility>

#include "core/error.h"
#include "core/units.h"

namespace ccb::shm {
namespace {

constexpr unsigned kSeals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;

ErrorContext context(int rank, int peer) { return ErrorContext{rank, peer, "shm", "connect", 0, "memfd"}; }

void* map_shared(int fd, int rank, int peer) {
  void* p = mmap(nullptr, sizeof(Segment), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) throw_errno("mmap the shm segment of " + format_bytes(sizeof(Segment)), context(rank, peer));
  return p;
}

}  // namespace

MappedSegment::~MappedSegment() {
  if (base_) munmap(base_, bytes_);
}

MappedSegment::MappedSegment(MappedSegment&& o) noexcept
    : base_(std::exchange(o.base_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}

MappedSegment& MappedSegment::operator=(MappedSegment&& o) noexcept {
  if (this != &o) {
    if (base_) munmap(base_, bytes_);
    base_ = std::exchange(o.base_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

CreatedSegment create_segment(int rank, int peer) {
  Fd fd(memfd_create("ccbench-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd) throw_errno("memfd_create for the shm segment", context(rank, peer));
  // fallocate, not ftruncate: a host short of memory fails here, not with SIGBUS later.
  if (ftruncate(fd.get(), sizeof(Segment)) != 0 || posix_fallocate(fd.get(), 0, sizeof(Segment)) != 0) {
    throw Error(ErrorKind::kSystem,
                "this host has no room for a " + format_bytes(sizeof(Segment)) +
                    " shm segment (one per pair of ranks on the host): free memory or use fewer ranks per host",
                context(rank, peer));
  }
  if (fcntl(fd.get(), F_ADD_SEALS, kSeals) != 0) throw_errno("seal the shm segment", context(rank, peer));
  MappedSegment map(map_shared(fd.get(), rank, peer), sizeof(Segment));
  Segment& s = *new (&map.get()) Segment{};
  s.magic = kSegmentMagic;
  s.version = kSegmentVersion;
  s.slots = kSlots;
  s.slot_bytes = kSlotBytes;
  return {std::move(fd), std::move(map)};
}

MappedSegment adopt_segment(int fd, int rank, int peer) {
  struct stat st {};
  if (fstat(fd, &st) != 0) throw_errno("fstat the peer's shm segment", context(rank, peer));
  const int seals = fcntl(fd, F_GET_SEALS);
  if (seals < 0 || (static_cast<unsigned>(seals) & kSeals) != kSeals || static_cast<size_t>(st.st_size) != sizeof(Segment))
    throw Error(ErrorKind::kProtocol, "the peer's shm segment is not a sealed memfd of " + format_bytes(sizeof(Segment)),
                context(rank, peer));
  MappedSegment map(map_shared(fd, rank, peer), sizeof(Segment));
  if (std::string why = check_layout(map.get()); !why.empty()) throw Error(ErrorKind::kProtocol, why, context(rank, peer));
  return map;
}

}  // namespace ccb::shm
