#pragma once
#include <chrono>
#include <memory>

#include "bootstrap/bootstrap.h"
#include "bootstrap/launch_env.h"
#include "bootstrap/store_hello.h"

namespace ccb {

// MPI under mpirun (when built with it), else the TCP store, which refuses processes
// whose fingerprint (what the ranks must agree on) differs from rank 0's.
std::unique_ptr<Bootstrap> make_bootstrap(const LaunchInfo& info, std::chrono::milliseconds timeout,
                                          bootstrap::JobFingerprint fingerprint = {});

}  // namespace ccb
