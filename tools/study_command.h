// `ccbench study`: the seed papers' table in one command. Live, every --profile is
// measured over every --transport, one job per transport (each its own store port),
// each leaving DIR/<transport>.json, a result record that compare and rules read like
// any run's; or `--from FILE [--label NAME]`... tabulates runs measured separately.
// Either way the table (model/study.h) is printed and DIR gets study.json, summary.md,
// index.html and the plots.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/study.h"
#include "run_command.h"

namespace ccb::cli {

struct StudyCommand {
  RunCommand base;
  std::string transports;                 // "tcp,ipoib,verbs"
  std::vector<std::string> from, labels;  // --from FILE, --label NAME (in order)
  std::string out_dir = "study";
  std::optional<double> compute_ms;
  std::string gpu = "a100";
  double mfu = 0.4;
  bool skip_unavailable = false;
  std::vector<std::string> skipped;       // "verbs: no RDMA device ..." (live, --skip-unavailable)

  std::vector<std::string> transport_list() const;
  model::ComputeChoice compute() const;
};

void add_study_options(CLI::App& sub, StudyCommand& c);
// Judges the flags and each transport here (before any rank starts); fills `skipped`.
void prepare_study(StudyCommand& c, bool report_skips);
// Builds, prints and writes the study from result files (no ranks).
int write_study(const StudyCommand& c, const std::vector<std::string>& files, const std::vector<std::string>& labels);
// One rank of a live study: a job per transport, then rank 0 writes the study.
int run_study_rank(const StudyCommand& c);

}  // namespace ccb::cli
