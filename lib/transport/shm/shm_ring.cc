#include "transport/shm/shm_ring.h"

namespace ccb::shm {

std::string check_indices(uint64_t head, uint64_t tail) {
  if (head - tail > kSlots || tail > head)
    return "ring head " + std::to_string(head) + " and tail " + std::to_string(tail) + " are more than " +
           std::to_string(kSlots) + " slots apart";
  return "";
}

std::string check_slot(const SlotHeader& h) {
  const std::string what = "slot of kind " + std::to_string(h.kind) + " (tag " + std::to_string(h.tag) + ")";
  if (h.total > kMaxMessageBytes) return what + " announces " + std::to_string(h.total) + " B, above the 1 TiB limit";
  switch (static_cast<SlotKind>(h.kind)) {
    case SlotKind::kData:
      if (h.len > kSlotBytes) return what + " holds " + std::to_string(h.len) + " B, more than a slot's " + std::to_string(kSlotBytes);
      if (h.offset > h.total || h.len > h.total - h.offset)
        return what + " lands at " + std::to_string(h.offset) + "+" + std::to_string(h.len) + ", past its message of " +
               std::to_string(h.total) + " B";
      return "";
    case SlotKind::kPull:
      if (h.total < kSingleCopyBytes) return what + " asks for a single copy of only " + std::to_string(h.total) + " B";
      return "";
    case SlotKind::kDone: return "";
  }
  return what + ": no such kind";
}

std::string check_layout(const Segment& s) {
  if (s.magic != kSegmentMagic || s.version != kSegmentVersion) return "the segment is not a ccbench shm segment of this version";
  if (s.slots != kSlots || s.slot_bytes != kSlotBytes) return "the segment's ring has another shape (ccbench versions differ)";
  return "";
}

}  // namespace ccb::shm
