#include "algo/host_hierarchy.h"

namespace ccb {

HostHierarchy::HostHierarchy(Communicator& intra, Communicator& inter, Algorithm inter_algorithm)
    : intra_(intra), inter_(inter), inter_algorithm_(inter_algorithm) {
  if (inter_algorithm == Algorithm::kHier || inter_algorithm == Algorithm::kDirect)
    throw_invalid("--inter-algo " + std::string(algorithm_name(inter_algorithm)) +
                  " is not an algorithm across hosts: use auto, ring, tree or rd");
}

LegTimes LegTimes::per_call() const {
  if (calls == 0) return {};
  const double n = static_cast<double>(calls);
  return {intra_reduce_us / n, inter_us / n, intra_gather_us / n, 1, inter_algorithm};
}

// Keyed by the world region's serial, never its address: a freed buffer's successor
// at the same address must not inherit a registration of the old pages.
BufferRef HostHierarchy::on(Communicator& level, const BufferRef& b) {
  for (const Registration& r : registrations_)
    if (r.world_serial == b.region->serial() && r.level == &level) return {r.region.get(), b.offset};
  if (registrations_.size() == kMaxRegistrations) registrations_.pop_front();
  registrations_.push_back({b.region->serial(), &level, level.transport().register_memory(b.region->base(), b.region->size())});
  return {registrations_.back().region.get(), b.offset};
}

}  // namespace ccb
