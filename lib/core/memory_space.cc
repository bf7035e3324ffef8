#include "core/memory_space.h"

#include <array>

#include "core/error.h"

namespace ccb {

// The registry: one row a space. A device space adds its own accessor here.
static const std::array<const MemorySpace* (*)(), 1> kSpaces = {
    [] { return &host_memory(); },
};

std::vector<std::string> memory_space_names() {
  std::vector<std::string> names;
  for (auto space : kSpaces) names.emplace_back(space()->name());
  return names;
}

static std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const MemorySpace& memory_space(std::string_view name) {
  for (auto space : kSpaces)
    if (space()->name() == name) return *space();
  throw_invalid("unknown memory space '" + std::string(name) + "': this build has " + listed(memory_space_names()));
}

void require_host_accessible(const MemorySpace& space) {
  if (space.host_accessible()) return;
  throw_invalid("memory space '" + std::string(space.name()) +
                "' is not mapped for the host, and this build's reductions, copies and checks run on the host: use --memory host");
}

}  // namespace ccb
