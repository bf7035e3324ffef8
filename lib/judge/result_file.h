// A result file as judging sees it, whichever kind it is: ccbench's own JSON (schemas
// ccbench.result/1 and /2) or the Google Benchmark JSON of bench_collectives. The
// result file is the contract between measuring and judging: compare, baselines,
// rules and reports read this, never a transport.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ccb::judge {

// Where an --algo hier call's time went (the record's legs_us): rank 0's mean per call.
struct HierLegs {
  double intra_before_us = 0, inter_us = 0, intra_after_us = 0;
  std::string inter_algorithm;  // what ran across hosts: "ring"
  std::string intra_algorithm;  // what ran within a host: "ring" ("" in older records: ring)
  std::string intra_transport;  // what the legs within a host ran on: "shm" ("" in older records)
};

// One measurement: what was measured (its key) and its figures, per pass.
struct Measured {
  std::string key;  // "allreduce ring tcp float sum 4 ranks 1048576 B", profile entries prefixed
  std::string collective, algorithm, transport, dtype, op;
  std::string profile, what, step_algorithm;  // a profile entry: the step's algorithm
  std::string variant;  // a transport sweep's setting ("qps=2"), part of the key
  int ranks = 0;
  uint64_t bytes = 0;
  bool in_place = false;
  bool chosen_by_auto = false;  // one sweep of --algo auto: its sizes' algorithms differ
  std::vector<double> busbw_gbps, time_us, p50_us, p99_us;  // one value per pass
  std::vector<double> samples_us;  // every iteration's time, when kept (--samples)
  std::optional<double> line_rate_gbps, link_util_pct;  // the median pass's
  uint64_t wrong = 0;
  uint64_t count_per_step = 0;  // a profile entry: its calls per training step
  std::optional<HierLegs> legs;  // an --algo hier row's
};

// A step a run summed (a profile's or a trace's communication per training step).
struct MeasuredStep {
  std::string kind, name, summary, algorithm;  // "profile", "llama2-7b:ddp", ..., "ring"
  std::vector<double> comm_us;                  // one value per pass
  uint64_t calls = 0, bytes = 0;
  double median_us() const;
};

struct ResultFile {
  std::string path;
  std::string raw_job;  // ccbench's "job" object as it was written (JSON), for baselines
  std::string schema;   // "ccbench.result/1", "ccbench.result/2", "google-benchmark"
  bool complete = true;
  std::string started_utc;
  // What makes two files comparable (compare names the one that differs).
  std::string machine;             // CPU model and count
  std::string host;
  std::string transport_settings;  // without what differs per host (addresses, GIDs)
  std::string memory = "host";     // the buffers' memory space; files before it had host only
  std::optional<double> line_rate_gbps;
  std::vector<Measured> results;
  std::vector<MeasuredStep> steps;
  std::string transport;  // "tcp", "verbs" ("" when the file mixes or does not say)
  std::vector<std::string> warnings;  // figures that disagree within the file (judging reads the passes)
  int ranks = 0;
  int hosts = 0, ranks_per_host = 0;  // job.layout's; 0 where the record keeps none, or hosts differ
};

// Result files are regular files of at most this size.
constexpr uint64_t kMaxResultFileBytes = 512ull << 20;

// Throws kInvalidArgument naming the file, where it is wrong (line and column for JSON
// that does not parse) and the fix: not JSON, truncated, an unknown schema, or a run
// still incomplete ("complete": false) unless allowed.
ResultFile read_result_file(const std::string& path, bool allow_incomplete = false);
// The same from text already in memory (a run judging its own record); `name` stands
// for the path in errors.
ResultFile parse_result_text(const std::string& text, const std::string& name, bool allow_incomplete = false);

// The transport settings with what differs between hosts removed (addr=, iface=, the
// GID's value), so that runs of one kind of host compare.
std::string comparable_settings(const std::string& settings);

}  // namespace ccb::judge
