// `ccbench scan`: the pairwise scan over N hosts, one rank on each (any launcher). Every
// pair's bandwidth (p2p_bidir, each way) and latency (p2p_lat, the median round trip
// halved) in n-1 rounds of disjoint pairs; slow pairs measured again, each alone; a verdict that
// names the host slow with every peer, or the cable or path of a pair (judge/pair_scan.h).
// Exit status: 0 pass, 1 a slow host or pair (or wrong data), 2 bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "run_command.h"

namespace ccb::cli {

struct ScanCommand {
  RunCommand base;  // how ranks start and connect, and the output files (--json, --plot)
  std::string bw_size = "1M";
  int window = 16;
  int bw_iters = 20;
  int lat_iters = 300;
  double bw_frac = 0.93;
  double lat_factor = 2.1;
  int retests = 1;
};

void add_scan_options(CLI::App& scan, ScanCommand& c);
// Before any rank starts (world: the ranks there will be), and again on each rank.
void validate_scan(const ScanCommand& c, int world, bool writes_outputs);
int run_scan_rank(const ScanCommand& c);

}  // namespace ccb::cli
