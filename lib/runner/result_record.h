// The files a run leaves for perf labs: JSON (schema "ccbench.result/1") and CSV, both
// rewritten atomically after every measured size, so a run that dies keeps every size
// it finished; a stream (/dev/stdout, a FIFO) gets the record once, at the end. Machine
// details are read from the system; the environment is never dumped (secrets live there).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "metrics/machine_info.h"
#include "runner/collective_runner.h"
#include "runner/step_runner.h"

namespace ccb {

inline constexpr const char* kResultSchema = "ccbench.result/1";
inline constexpr const char* kCcbenchVersion = "0.1.0";

// What stays the same over a job.
struct JobInfo {
  std::vector<std::string> command;
  MachineInfo machine;
  int ranks = 0;
  std::string bootstrap;
  std::string transport;           // "tcp", "verbs"
  std::string transport_settings;  // Transport::describe()
  LinkInfo link;
  double line_rate_gbps = 0;
  std::string line_rate_source;    // "--line-rate", "link" or "none"
  std::string isa;
  std::string started_utc;         // ISO 8601
};

// One measured size: a plain sweep leaves the profile fields empty.
struct ResultRow {
  RunOptions options;
  SizeResult result;
  std::string profile;   // "llama2-7b:ddp"
  std::string what;      // "gradient bucket"
  uint64_t count_per_step = 0;
};

struct StepSummary {
  std::string kind;      // "profile" or "trace"
  std::string name;      // profile name or trace file
  std::string summary;
  std::string algorithm;
  double comm_us = 0;    // one step's communication time
  uint64_t calls = 0, bytes = 0;
  LatencyStats trace_total_us;  // traces: per timed pass
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
  void finish(bool complete);  // marks the JSON "complete": true

  std::string json_text() const;
  std::string csv_text() const;

 private:
  void flush() const;
  void write_streams();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ccb
