#include "profile_listing.h"

#include <cstdio>

#include "profiles/parameter_layout.h"
#include "profiles/profile.h"

namespace ccb::cli {

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

}  // namespace ccb::cli
