// `ccbench run --list-profiles`: what each profile derives, without running anything.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace ccb::cli {

// Every preset in every mode, or only `specs` when given. Returns the exit status.
int list_profiles(std::ostream& out, const std::vector<std::string>& specs);

}  // namespace ccb::cli
