#include "algo/host_hierarchy.h"

#include <algorithm>
#include <utility>

#include "core/error.h"

namespace ccb {

HostHierarchy::HostHierarchy(Communicator& intra, Communicator& inter, Algorithm inter_algorithm, std::vector<int> world_ranks)
    : intra_(intra), inter_(inter), inter_algorithm_(inter_algorithm), world_ranks_(std::move(world_ranks)) {
  if (world_ranks_.size() != static_cast<size_t>(intra.size()) * static_cast<size_t>(inter.size()))
    throw_invalid("the host levels hold " + std::to_string(world_ranks_.size()) + " ranks, not " +
                  std::to_string(intra.size()) + " a host x " + std::to_string(inter.size()) + " hosts");
  if (inter_algorithm == Algorithm::kHier || inter_algorithm == Algorithm::kDirect)
    throw_invalid("--inter-algo " + std::string(algorithm_name(inter_algorithm)) +
                  " is not an algorithm across hosts: use auto, ring, tree or rd");
}

int HostHierarchy::world_rank(int host, int local) const {
  return world_ranks_.at(static_cast<size_t>(host) * static_cast<size_t>(intra_.size()) + static_cast<size_t>(local));
}

StagedBuffer HostHierarchy::staging(int which, size_t bytes) {
  Staging& s = staging_.at(static_cast<size_t>(which));
  if (!s.intra || s.memory.size() < bytes) {
    s.intra.reset();
    s.inter.reset();
    s.memory = SpaceBuffer();
    s.memory = intra_.memory().allocate(std::max<size_t>(bytes, 64));
    s.intra = intra_.transport().register_memory(s.memory.data(), s.memory.size());
    s.inter = inter_.transport().register_memory(s.memory.data(), s.memory.size());
  }
  return {s.memory.data(), {s.intra.get(), 0}, {s.inter.get(), 0}};
}

HostHierarchy& hierarchy_of(Communicator& world) {
  if (!world.hierarchy())
    throw_invalid("--algo hier runs only where the job opened its host levels (ccbench run): use --algo ring, tree or rd");
  return *world.hierarchy();
}

LegTimes LegTimes::per_call() const {
  if (calls == 0) return {};
  const double n = static_cast<double>(calls);
  return {intra_before_us / n, inter_us / n, intra_after_us / n, 1, inter_algorithm, intra_algorithm, intra_transport};
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
