// `run`'s two levels: when the job opens them (--algo hier, or auto across hosts of
// several ranks each), and what it prints beside each hier row: where a call's time went
// (each leg, rank 0's view) and what each NIC sent while the size ran.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "bootstrap/host_layout.h"
#include "core/collective_kind.h"
#include "job/host_levels.h"
#include "job/rank_job.h"
#include "metrics/link_utilization.h"
#include "runner/collective_runner.h"

namespace ccb::cli {

struct RunCommand;

// --intra, --inter-algo and --ranks-per-host, for every subcommand that runs `run`'s jobs.
void add_host_level_options(CLI::App& app, RunCommand& c);

// The levels this job's hier calls run on, or null when none can: checks
// --ranks-per-host against the hosts found first. Every rank calls it at once.
std::unique_ptr<HostLevels> open_host_levels(const RunCommand& cmd, RankContext& rank);

// "host-a eth1 33.6 MiB, host-a eth2 33.6 MiB"
std::string nic_bytes_text(const CounterRate& c, const HostLayout& layout);
// `over`: what the legs within a host ran on (shm, or the job's transport).
void print_hier_legs(const SizeResult& r, CollectiveKind kind, const std::string& over, const HostLayout& layout);

}  // namespace ccb::cli
