// What `run --algo hier` prints beside each row: where a call's time went (each leg,
// rank 0's view) and what each NIC sent while the size ran.
#pragma once
#include <string>

#include "bootstrap/host_layout.h"
#include "core/collective_kind.h"
#include "metrics/link_utilization.h"
#include "runner/collective_runner.h"

namespace ccb::cli {

// "host-a eth1 33.6 MiB, host-a eth2 33.6 MiB"
std::string nic_bytes_text(const CounterRate& c, const HostLayout& layout);
// `over`: what the legs within a host ran on (shm, or the job's transport).
void print_hier_legs(const SizeResult& r, CollectiveKind kind, const std::string& over, const HostLayout& layout);

}  // namespace ccb::cli
