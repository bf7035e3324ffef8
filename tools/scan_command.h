// `ccbench scan`: the pairwise scan over N hosts, one rank on each (any launcher). Every
// pair's bandwidth (p2p_bidir, each way) and latency (p2p_lat, the median round trip
// halved) in n-1 rounds of disjoint pairs; slow pairs measured again, each alone; a verdict that
// names the host slow with every peer, or the cable or path of a pair (judge/pair_scan.h).
// Exit status: 0 pass, 1 a slow host or pair (or wrong data), 2 bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "fabric_flags.h"
#include "job/rank_job.h"
#include "judge/pair_scan.h"
#include "report/plot.h"
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
  int retests = 2;
  FabricFlags fabric;   // --topology (rank r is its host r), --plan; --hosts & co. for --dry-run
  bool dry_run = false;
};

struct PairFigures {
  judge::PairMatrix bw_gbps, lat_us;  // GB/s each way; one-way microseconds
};

struct ScanOutcome {
  std::vector<std::string> labels;
  std::vector<std::vector<int>> rounds;
  PairFigures first, final;
  std::vector<judge::SlowPair> retested;
  judge::ScanVerdict verdict;
  std::vector<std::string> lines;
  uint64_t wrong = 0;
  judge::ScanLimits limits;
  std::string one_place;  // where every rank runs, when all share one host and NIC: pairs are not judged
  std::string topology, plan = "full";               // --topology's file ("" without), the plan that ran
  std::vector<std::vector<std::string>> findings;    // with a topology: the elements named, several when tied
  bool pass() const { return (verdict.pass() || !one_place.empty()) && wrong == 0; }
};

void add_scan_options(CLI::App& scan, ScanCommand& c);
// Before any rank starts (world: the ranks there will be), and again on each rank.
void validate_scan(const ScanCommand& c, int world, bool writes_outputs);
int run_scan_rank(const ScanCommand& c);
// --dry-run: the plan's rounds, pairs, coverage and predicted time; nothing runs.
int run_scan_dry_run(const ScanCommand& c);
// The scan within a job (ccbench qualify runs one): every rank calls it; all get the
// same outcome. `progress`: rank 0 prints each round.
ScanOutcome measure_scan(const ScanCommand& c, RankContext& rank, bool progress);
// Every pair against the rule as a heatmap: coloured by its margin (below 1 fails, on
// bandwidth or latency), labelled with its bandwidth and latency.
report::Plot scan_heatmap(const ScanOutcome& s);

}  // namespace ccb::cli
