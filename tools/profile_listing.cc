#include "profile_listing.h"

#include <cstdio>

#include "profiles/parameter_layout.h"
#include "profiles/parallel_step.h"
#include "profiles/profile.h"
#include "run_parallel.h"

namespace ccb::cli {

static std::string join_ranks(const std::vector<int>& ranks) {
  std::string s;
  for (int r : ranks) {
    if (!s.empty()) s += ',';
    s += std::to_string(r);
  }
  return s;
}

static void print_profile(std::ostream& out, const Profile& p) {
  out << p.name << ": " << p.summary << "\n";
  char line[256];
  for (const ProfileEntry& e : p.entries) {
    std::snprintf(line, sizeof line, "  %-15s %14llu B %12.3f MiB %-9s x%-6llu %s\n", std::string(collective_name(e.op)).c_str(),
                  static_cast<unsigned long long>(e.bytes), static_cast<double>(e.bytes) / (1 << 20),
                  std::string(dtype_name(e.dtype)).c_str(), static_cast<unsigned long long>(e.count), e.what.c_str());
    out << line;
  }
  std::snprintf(line, sizeof line, "  per step: %llu calls, %.3f GiB\n\n", static_cast<unsigned long long>(p.calls_per_step()),
                static_cast<double>(p.bytes_per_step()) / (1 << 30));
  out << line;
}

int list_profiles(std::ostream& out, const std::vector<std::string>& specs) {
  if (!specs.empty()) {
    for (const std::string& s : specs) print_profile(out, resolve_profile(s));
    return 0;
  }
  for (const ModelConfig& m : model_presets())
    for (ParallelMode mode : all_modes())
      if (mode_applies(m, mode)) print_profile(out, derive_profile(m, mode));
  return 0;
}

int list_parallel(std::ostream& out, const RunCommand& c) {
  const ParallelPlan plan = parallel_plan(c, c.np);
  const ParallelLayout& l = plan.layout;
  out << plan.model.name << " as " << l.describe() << " over " << l.world() << " ranks (--np), Megatron's rank order\n\n";
  for (int stage = 0; stage < l.pp; ++stage) {
    const int first = stage * l.tp * l.dp;  // every rank of a stage carries the same step
    for (const GroupStep& g : derive_group_steps(plan.model, l, first)) {
      if (g.profile.entries.empty()) continue;
      out << "ranks " << first << ".." << first + l.tp * l.dp - 1 << ", their " << group_kind_name(g.kind) << " groups of "
          << l.size(g.kind) << " (rank " << first << "'s: " << join_ranks(group_members(l, g.kind, first)) << ")\n";
      print_profile(out, g.profile);
    }
  }
  return 0;
}

}  // namespace ccb::cli
