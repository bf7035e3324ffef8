#include "algo/algorithm_choice.h"

namespace ccb {

Algorithm shipped_algorithm(const CollectiveDescriptor& d, int world, uint64_t bytes, bool hierarchy) {
  if (hierarchy && d.hierarchical && bytes > kShippedHierBytes) return Algorithm::kHier;
  if (world > 1 && bytes <= kShippedLatencyBytes && d.small_messages != Algorithm::kAuto) return d.small_messages;
  if (world >= 4 && bytes > kShippedLatencyBytes && bytes <= kShippedMediumBytes && d.medium_messages != Algorithm::kAuto)
    return d.medium_messages;
  return d.algorithms.front();
}

}  // namespace ccb
