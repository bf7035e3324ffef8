// The fabric a planning or simulating command works on: a topology file, or a regular
// leaf-spine fabric given by its counts (--hosts, --leaves, --spines). Shared by
// `scan --dry-run` and `fabric simulate`.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "fabric/scan_plan.h"
#include "fabric/topology.h"

namespace ccb::cli {

struct FabricFlags {
  std::string topology;
  int hosts = 0, leaves = 0, spines = 0;
  std::string host_rate = "100G", uplink_rate;  // uplink_rate: by default as much as the leaf's hosts
  std::string plan = "full";
  uint64_t seed = 1;
};

void add_fabric_flags(CLI::App& app, FabricFlags& f);
// The topology file, or the regular fabric; throws kInvalidArgument naming the flag.
fabric::Topology fabric_of(const FabricFlags& f);

// The pair test a scan with these flags runs, as the plan's time is predicted from it.
fabric::PairTest pair_test_of(const std::string& bw_size, int window, int bw_iters, int lat_iters);

}  // namespace ccb::cli
