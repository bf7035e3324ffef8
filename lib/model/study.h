// The seed papers' table (seed 003: TCP/IP, IPoIB and RDMA on GPT, BERT and T5) built
// from result records: per LLM profile, each transport's communication per training
// step, its speedup over the others, its peak and mean link use and the share of a
// step it takes. Each run is a result file of profile steps (ccbench run --profile or
// ccbench study), labelled by its transport or by --label, so runs measured on
// different days or fabrics stand in one table.
//
// Link use comes from the records' bus bandwidth: a call's bus bytes (busbw x time)
// are what each rank's link carries, so the peak is the fastest call's bus bandwidth
// and the mean is the step's bus bytes over the step's time.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "judge/result_file.h"
#include "profiles/model_config.h"
#include "report/report.h"

namespace ccb::model {

struct StudyRun {
  std::string label;  // "tcp", "verbs", "10G"
  judge::ResultFile file;
};

struct ComputeChoice {
  std::optional<double> compute_ms;  // --compute-ms; else derived from the model
  double tflops = 312, mfu = 0.4;
  std::string gpu = "a100";
  // The models of the --profile flags, found by name before the presets: a record names
  // a model file's model by its "name", not by the file.
  std::vector<ModelConfig> models;
};

struct StudyCell {
  std::string label, transport;
  double comm_ms = 0;
  double peak_gbit = 0, mean_gbit = 0;  // link use, Gbit/s
  double share = 0;                      // comm / (comm + compute)
  size_t passes = 0;
};

struct StudyProfile {
  std::string name, summary;
  double compute_ms = 0;
  std::string compute_how;
  std::vector<StudyCell> cells;  // one per run that measured it, in the runs' order
};

struct Study {
  std::vector<std::string> labels;
  std::vector<StudyProfile> profiles;
  std::vector<std::string> notes;  // a transport skipped, a profile one run lacks
};

// Throws kInvalidArgument: no run, a label twice, a run without profile steps.
Study build_study(const std::vector<StudyRun>& runs, const ComputeChoice& compute);

std::string study_text(const Study& s);      // the terminal's table
std::string study_markdown(const Study& s);
std::string study_html(const Study& s);
std::string study_json(const Study& s);      // "ccbench.study/1"
// Grouped bars of each profile's communication per step, a bar per run.
report::Plot study_bars(const Study& s);
// Bus bandwidth against size, a line per run, over every profile's calls.
report::Plot study_busbw(const std::vector<StudyRun>& runs);

}  // namespace ccb::model
