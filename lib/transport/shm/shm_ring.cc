#include "transport/shm/shm_ring.h"

namespace ccb::shm {

std::string check_indices(uint64_t published, uint64_t tail) {
  if (published - tail > kSlots || tail > published)
    return "ring tail " + std::to_string(tail) + " and the " + std::to_string(published) + " slots published are more than " +
           std::to_string(kSlots) + " slots apart";
  return "";
}

std::string check_stamp(uint64_t stamp, uint64_t expected) {
  if (stamp == expected || stamp == stamp_a_lap_before(expected)) return "";
  return "ring slot " + std::to_string(expected) + " is stamped " + std::to_string(stamp) + ", neither " + std::to_string(expected) +
         " nor its stamp of a lap before";
}

// The words are built only for a slot that fails: this runs for every slot read.
std::string check_slot(const SlotHeader& h) {
  auto what = [&h] { return "slot of kind " + std::to_string(h.kind) + " (tag " + std::to_string(h.tag) + ")"; };
  if (h.total > kMaxMessageBytes) return what() + " announces " + std::to_string(h.total) + " B, above the 1 TiB limit";
  switch (static_cast<SlotKind>(h.kind)) {
    case SlotKind::kData:
      if (h.len > kSlotBytes) return what() + " holds " + std::to_string(h.len) + " B, more than a slot's " + std::to_string(kSlotBytes);
      if (h.offset > h.total || h.len > h.total - h.offset)
        return what() + " lands at " + std::to_string(h.offset) + "+" + std::to_string(h.len) + ", past its message of " +
               std::to_string(h.total) + " B";
      return "";
    case SlotKind::kPull:
      if (h.total < kSingleCopyBytes) return what() + " asks for a single copy of only " + std::to_string(h.total) + " B";
      return "";
    case SlotKind::kDone: return "";
  }
  return what() + ": no such kind";
}

std::string check_layout(const Segment& s) {
  if (s.magic != kSegmentMagic || s.version != kSegmentVersion) return "the segment is not a ccbench shm segment of this version";
  if (s.slots != kSlots || s.slot_bytes != kSlotBytes) return "the segment's ring has another shape (ccbench versions differ)";
  return "";
}

}  // namespace ccb::shm
