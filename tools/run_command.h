// `ccbench run`: its options, and the job each rank runs.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "bootstrap/launch_env.h"
#include "bootstrap/store_hello.h"
#include "job/host_levels.h"
#include "profiles/profile.h"
#include "runner/collective_runner.h"
#include "runner/result_record.h"
#include "runner/transport_factory.h"

namespace ccb::cli {

struct RunCommand {
  std::string min_bytes, max_bytes, sizes;
  double step_factor = 2;
  std::string dtype = "float", op = "sum", algos = "auto", collective = "allreduce";
  std::string intra = "shm";             // --intra: --algo hier's transport within a host (shm, or same)
  std::string inter_algo = "auto";       // --inter-algo: --algo hier's algorithm across hosts
  int ranks_per_host = 0;                // --ranks-per-host: checked against the hosts found (0: any)
  int iters = 0, warmup = -1, check = 1;
  bool in_place = false;
  bool tune = false;
  int root = 0;                          // --root: broadcast, reduce, gather and scatter
  std::string peer_map;                  // --peer-map: send/recv's permutation, "1,2,0"
  std::string splits;                    // --splits: all_to_allv's matrix file or routing model
  int window = 1;                        // --window: point-to-point messages in flight
  bool pairs = false;                    // --pairs: point-to-point tests on more than 2 ranks
  std::string sweep;                     // --sweep qps=1,2,4 | streams=1,2,4 (transport_sweep.h)
  int np = 4;
  bool np_given = false;
  bool bind_cores = false;
  bool bind_numa = false;                // --bind-numa: every rank on the CPUs near its NIC
  double timeout_s = 60;
  int spin_us = 50;
  std::string chunk_bytes = "512K";
  int slots = 4;
  std::string socket_buffer = "0";
  std::string line_rate;                 // --line-rate; "" reads the link
  std::vector<std::string> profiles;     // --profile NAME[:mode]
  std::string trace;                     // --trace FILE
  std::string parallel;                  // --parallel tp=T,pp=P,dp=D (with one --profile MODEL)
  int trace_passes = 5;                  // timed passes of a replayed step (--trace, --parallel)
  int repeat = 1;                        // --repeat: passes over the sizes, profile or trace
  bool shuffle = false;                  // --shuffle: each pass's sizes in a random order
  std::optional<uint64_t> seed;          // --seed: that order's seed (default: drawn, recorded)
  bool samples = false;                  // --samples: keep every iteration's time
  bool hops = false;                     // --hops: time each hop of the ring, name the slowest
  std::string duration;                  // --duration: a soak of this long (soak.h); "" none
  double interval_s = 10;                // --interval: a soak's progress line and record rewrite
  double hop_factor = 1.5;               // --hop-factor: the slowest hop over the median that is a straggler
  bool debug = false;                    // --debug: CCB_DEBUG=1 (transport/debug_trace.h)
  std::string rules, rules_baseline, rules_junit;  // --rules, --baseline, --junit (run_rules.h)
  int retries = 0;                       // --retries: failing sizes measured again
  std::string json_path, csv_path;
  std::string plot_path;                 // --plot FILE.svg|.png
  std::vector<std::string> argv;         // the command line, for result records
  TransportChoice transport;

  std::vector<uint64_t> size_list() const;
  std::vector<Algorithm> algorithm_list() const;
  bool runs_hier() const;  // --algo names hier
  // --algo auto in a sweep of sizes, of a collective that runs in two levels: it may
  // choose hier (algo/algorithm_choice.h), so --intra and --inter-algo apply.
  bool auto_may_run_hier() const;
  // ... and these hosts have levels to run it on: several, of the same number of ranks,
  // more than one each.
  bool auto_runs_hier(const HostLayout& layout) const;
  // --algo hier's levels: --intra's transport within a host, this job's across hosts.
  HostLevelsPlan host_levels_plan(const JobSettings& settings, uint64_t job_token) const;
  RunOptions run_options(Algorithm a) const;
  // --peer-map's entries (empty when not given); validate() checks it is a permutation.
  std::vector<int> peer_map_list() const;
  std::vector<Profile> profile_list() const;
  // What every rank of the job must agree on, for the store to check (store_hello.h).
  bootstrap::JobFingerprint fingerprint(int world_size) const;
  // Fails fast, before any rank starts, on what can be judged without peers; the
  // output files too where they will be written (`writes_outputs`).
  void validate(int world_size, int ranks_here, bool writes_outputs) const;
};

// --socket-buffer as the int SO_SNDBUF takes; throws kInvalidArgument out of range.
int parse_socket_buffer(const std::string& text);

// What stays the same over the job, for its result record; with the host manifest and
// rank 0's warnings about its host.
JobInfo job_info(const RunCommand& c, const Bootstrap& b, const Transport& t, const HostLayout& layout);

// The job of one rank; returns its exit status.
int run_rank(const RunCommand& cmd);
// The same in a job the caller places (a study runs one job per transport, each on its
// own store port).
int run_rank(const RunCommand& cmd, const LaunchInfo& info);

}  // namespace ccb::cli
