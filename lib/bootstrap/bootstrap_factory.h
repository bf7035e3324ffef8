#pragma once
#include <chrono>
#include <memory>

#include "bootstrap/bootstrap.h"
#include "bootstrap/launch_env.h"

namespace ccb {

// MPI under mpirun (when built with it), else the TCP store.
std::unique_ptr<Bootstrap> make_bootstrap(const LaunchInfo& info, std::chrono::milliseconds timeout);

}  // namespace ccb
