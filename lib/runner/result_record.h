// The files a run leaves for perf labs: JSON (schema "ccbench.result/2") and CSV, both
// rewritten atomically after every measured size, so a run that dies keeps every size
// it finished; a stream (/dev/stdout, a FIFO) gets the record once, at the end. Machine
// details are read from the system; the environment is never dumped (secrets live there).
//
// Schema 2 adds repetitions to schema 1 without moving a field: each result keeps its
// passes ("passes", in the order they ran, each with the figures of one pass and, with
// --samples, every iteration's slowest-rank time) and their "summary" (median, min, max
// and a 95% confidence interval of the median, for bus bandwidth, time, p50 and p99).
// The fields schema 1 had at the top of a result are the median pass's (by bus
// bandwidth), and "wrong" counts every pass. A run of one pass is a run of schema 1
// with those two fields added.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bootstrap/host_layout.h"
#include "metrics/host_manifest.h"
#include "metrics/machine_info.h"
#include "runner/collective_runner.h"
#include "runner/measurement_set.h"
#include "runner/step_runner.h"

namespace ccb {

inline constexpr const char* kResultSchema = "ccbench.result/2";
inline constexpr const char* kCcbenchVersion = "0.1.0";

// What stays the same over a job.
struct JobInfo {
  std::vector<std::string> command;
  MachineInfo machine;
  int ranks = 0;
  std::string bootstrap;
  std::string transport;           // "tcp", "verbs"
  std::string transport_settings;  // Transport::describe()
  std::string memory = "host";     // the buffers' memory space (--memory)
  WaitPolicy wait;                 // rank 0's: how long it spun, and whether it yielded
  LinkInfo link;
  double line_rate_gbps = 0;
  std::string line_rate_source;    // "--line-rate", "link" or "none"
  std::string isa;
  std::string started_utc;         // ISO 8601
  int repeat = 1;                  // passes over the sizes (--repeat)
  std::optional<uint64_t> shuffle_seed;  // --shuffle: each pass's order comes from it
  bool samples = false;            // --samples: every iteration's time is kept
  HostLayout layout;               // every rank's host, local rank and NIC
  HostManifest manifest;           // rank 0's host: its NIC's PCIe, NUMA node, MTU...
  std::vector<std::string> warnings;  // what the manifest says is wrong there
};

std::string utc_now_iso8601();

class ResultRecord {
 public:
  // Empty paths write nothing. Both files are checked and created (empty runs) at once,
  // so a bad path fails before any measurement (core/files.h says what is refused).
  ResultRecord(JobInfo job, std::string json_path, std::string csv_path);
  ~ResultRecord();
  void add(const ResultRow& row);
  void add(const StepSummary& step);
  void restart(const ResultRow& row);  // measured again: its passes start over (--retries)
  void replace(const ResultRow& row);  // a soak's row, rewritten as it runs
  void finish(bool complete);  // marks the JSON "complete": true
  const MeasurementSet& measurements() const;

  std::string json_text() const;
  std::string csv_text() const;

 private:
  void flush() const;
  void write_streams();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ccb
