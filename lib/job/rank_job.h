// One rank of a measuring job, as every measuring command and the benchmark driver run
// it: join the job through the bootstrap (with the fingerprint the ranks must agree
// on), open the transport, watch for the job failing elsewhere, connect the
// communicator, run the body. When anything fails, the error is reported as one line
// and every other rank is told at once, so none waits out its timeout.
#pragma once
#include <chrono>
#include <functional>

#include "algo/communicator.h"
#include "bootstrap/bootstrap.h"
#include "bootstrap/launch_env.h"
#include "bootstrap/store_hello.h"
#include "runner/transport_factory.h"

namespace ccb {

struct JobSettings {
  TransportChoice transport;
  std::chrono::milliseconds timeout{60000};  // a silent peer is declared gone after this
  std::chrono::microseconds spin{50};
  bootstrap::JobFingerprint fingerprint;
};

struct RankContext {
  Bootstrap& boot;
  Transport& transport;
  Communicator& comm;
};

// Returns the body's exit status, or the error's (report_error) after ending the job.
int run_as_rank(const LaunchInfo& info, const JobSettings& settings, const std::function<int(RankContext&)>& body);

}  // namespace ccb
