// A training step's communication at each scale: the profile's entries (or each
// --parallel group's) priced by projection.h's group_call_us.
#include <algorithm>

#include "core/collective_kind.h"
#include "core/error.h"
#include "core/units.h"
#include "model/projection.h"

namespace ccb::model {
namespace {

struct GroupLoad {
  Profile profile;
  int size = 1, stride = 1;
};

std::vector<GroupLoad> loads_at(const ProjectionInput& in, int ranks) {
  if (in.parallel) {
    ParallelLayout layout;
    try {
      layout = parse_parallel(*in.parallel, ranks);
    } catch (const Error& e) {
      throw_invalid("--ranks " + std::to_string(ranks) + " does not fit --parallel " + *in.parallel + ": " + e.message());
    }
    std::vector<GroupLoad> loads;
    for (const GroupStep& g : derive_group_steps(in.model, layout, 0)) {
      const int stride = g.kind == GroupKind::kTensor ? 1 : g.kind == GroupKind::kData ? layout.tp : layout.tp * layout.dp;
      loads.push_back({g.profile, layout.size(g.kind), stride});
    }
    return loads;
  }
  const Profile p = derive_profile(in.model, *in.mode);
  if (*in.mode == ParallelMode::kTensorParallel)
    return {{p, std::min(ranks, static_cast<int>(in.model.tensor_parallel)), 1}};
  if (*in.mode == ParallelMode::kPipeline) return {{p, 2, in.gpus_per_node}};
  return {{p, ranks, 1}};
}

std::string entry_label(const ProfileEntry& e) {
  return std::string(collective_name(e.op)) + " " + format_bytes(e.bytes);
}

}  // namespace

int model_parallel_ways(const ProjectionInput& in, int ranks) {
  if (in.parallel) {
    const ParallelLayout l = parse_parallel(*in.parallel, ranks);
    return l.tp * l.pp;
  }
  return in.mode == ParallelMode::kTensorParallel ? static_cast<int>(std::min<uint64_t>(in.model.tensor_parallel, ranks)) : 1;
}

std::vector<ScaleRow> project(const Network& net, const ProjectionInput& in) {
  std::vector<ScaleRow> rows;
  for (int ranks : in.ranks) {
    ScaleRow row;
    row.ranks = ranks;
    double max_bytes = 0;
    for (const GroupLoad& load : loads_at(in, ranks))
      for (const ProfileEntry& e : load.profile.entries) {
        const std::string collective(collective_name(e.op));
        const int group = collective == "send_recv" ? 2 : load.size;
        const double bytes = static_cast<double>(e.bytes);
        // The column's algorithm is AllReduce's; every other collective runs its own.
        const std::string own = find_formula(collective, "ring") != nullptr ? "ring" : "direct";
        const double ring = group_call_us(net, collective, own, group, load.stride, in.gpus_per_node, bytes);
        const double tree =
            collective == "allreduce" ? group_call_us(net, collective, "tree", group, load.stride, in.gpus_per_node, bytes) : ring;
        row.comm_ring_us += ring * static_cast<double>(e.count);
        row.comm_tree_us += tree * static_cast<double>(e.count);
        row.calls_ring_us.emplace_back(entry_label(e), ring);
        max_bytes = std::max(max_bytes, bytes);
      }
    row.step_ring_ms = in.compute_ms + row.comm_ring_us / 1e3;
    row.step_tree_ms = in.compute_ms + row.comm_tree_us / 1e3;
    row.extrapolation = net.extrapolation(ranks, max_bytes);
    rows.push_back(std::move(row));
  }
  for (ScaleRow& r : rows) {
    r.efficiency_ring = rows.front().step_ring_ms / r.step_ring_ms;
    r.efficiency_tree = rows.front().step_tree_ms / r.step_tree_ms;
  }
  return rows;
}

}  // namespace ccb::model
