// `ccbench run --list-profiles`: what each profile derives, without running anything.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "run_command.h"

namespace ccb::cli {

// Every preset in every mode, or only `specs` when given. Returns the exit status.
int list_profiles(std::ostream& out, const std::vector<std::string>& specs);
// With --parallel: each pipeline stage's groups and what each carries per step.
int list_parallel(std::ostream& out, const RunCommand& c);

}  // namespace ccb::cli
