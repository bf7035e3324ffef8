#include "model_command.h"

#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "job/number_flags.h"
#include "judge/result_file.h"
#include "judge/statistics.h"
#include "model/fit.h"
#include "report/plot.h"
#include "report_command.h"

namespace ccb::cli {
namespace {

std::vector<judge::ResultFile> read_all(const std::vector<std::string>& paths) {
  std::vector<judge::ResultFile> files;
  for (const std::string& p : paths) files.push_back(judge::read_result_file(p));
  return files;
}

// Measured points and the model's curve of each group, on the same axes.
report::Plot fit_plot(const model::FitReport& fit) {
  report::Plot p;
  p.name = "model-fit";
  p.title = "Measured time and the fitted model";
  p.xlabel = "size";
  p.ylabel = "time (us)";
  p.log_y = true;
  for (const model::GroupFit& g : fit.groups) {
    if (g.key.ranks == 0) continue;  // each world size is drawn on its own
    report::Series measured{g.key.describe() + " measured", {}, false}, curve{g.key.describe() + " model", {}, false};
    for (const model::FitPoint& pt : g.points) {
      measured.points.push_back({pt.bytes, pt.time_us, 0, 0});
      curve.points.push_back({pt.bytes, g.predict_us(pt.ranks, pt.bytes), 0, 0});
    }
    p.series.push_back(std::move(measured));
    p.series.push_back(std::move(curve));
  }
  return p;
}

void write_plot(const std::string& path, const report::Plot& p) {
  const report::Drawing d = report::draw(p);
  write_output(check_output("--plot", path), path.ends_with(".png") ? d.png : d.svg);
}

}  // namespace

void ModelCommand::add_options(CLI::App& sub) {
  sub.require_subcommand(1);
  fit_app_ = sub.add_subcommand("fit", "Fit the alpha-beta-gamma cost of each collective, algorithm and world size in result files");
  fit_app_->add_option("results", fit_.results, "Result files of sweeps (ccbench run --json), one machine")->required();
  fit_app_->add_option("--out", fit_.out, "Write the fit as JSON (model project --fit reads it)");
  fit_app_->add_option("--plot", fit_.plot, "Draw the measured points and the model into this .svg or .png");
  fit_app_->add_option("--ranks", fit_.ranks, "Fit only these world sizes")->delimiter(',')->allow_extra_args(false);

  project_app_ = sub.add_subcommand("project", "Project a training step's communication and time to thousands of GPUs");
  Project& p = project_;
  project_app_->add_option("--fit", p.fit, "A fit (model fit --out FILE): its latency and bandwidth per collective");
  project_app_->add_option("--transport", p.transport, "The fit's transport to use, when it holds several");
  project_app_->add_option("--alpha", p.alpha, "Or give the latency of one message step: 2us");
  project_app_->add_option("--bandwidth", p.bandwidth, "and the link's bandwidth in bit/s: 100G");
  project_app_->add_option("--ranks", p.ranks, "GPUs to project to: 8,64,512,4096")->delimiter(',')->allow_extra_args(false)->required()->check(CLI::Range(2, 1 << 24));
  project_app_->add_option("--gpus-per-node", p.gpus_per_node, "GPUs per node, joined by --intra-alpha and --intra-bandwidth")
      ->check(CLI::Range(1, 1024))->capture_default_str();
  project_app_->add_option("--intra-alpha", p.intra_alpha, "The latency within a node (unless given: the --fit's hier within-hosts leg, where it has one)")->capture_default_str();
  project_app_->add_option("--intra-bandwidth", p.intra_bandwidth, "The bandwidth per GPU within a node, bit/s (1200G: NVLink 3's 150 GB/s a direction; unless given: the --fit's hier leg)")->capture_default_str();
  project_app_->add_option("--profile", p.profile, "The step: MODEL:MODE (ddp, fsdp, tp, zero1...), or MODEL with --parallel (default llama2-7b:ddp)");
  project_app_->add_option("--parallel", p.parallel, "A 3D-parallel layout: tp=8,pp=4 (dp: what each scale leaves)");
  project_app_->add_option("--compute-ms", p.compute_ms, "A step's compute time (default: derived from the model)")->check(finite_in(0, 1e9));
  project_app_->add_option("--gpu-tflops", p.gpu, "a100, h100 (dense bf16) or TFLOPS")->capture_default_str();
  project_app_->add_option("--mfu", p.mfu, "The model flops utilisation reached")->check(finite_in(0.01, 1))->capture_default_str();
  project_app_->add_flag("--accept-poor-fit", p.accept_poor_fit, "Project from a fit that model fit flags as poor (low R2, large error, no latency)");
  project_app_->add_flag("--what-if", p.what_if, "Seed 003's settings side by side: RDMA 100G, IPoIB 100G, TCP 10G");
  project_app_->add_option("--json", p.json, "Also write the projection as JSON");

  validate_app_ = sub.add_subcommand("validate", "Fit on small world sizes, predict the larger ones measured, report the error");
  validate_app_->add_option("results", validate_.results, "Result files of sweeps at several world sizes")->required();
  validate_app_->add_option("--fit-ranks", validate_.fit_ranks, "The world sizes to fit on: 2,3,4")->delimiter(',')->allow_extra_args(false)->required();
  validate_app_->add_option("--json", validate_.json, "Also write every prediction and its error as JSON");
}

int ModelCommand::run(const CLI::App&) {
  if (fit_app_->parsed()) return run_model_fit(fit_);
  if (project_app_->parsed()) {
    project_.intra_given = project_app_->count("--intra-alpha") + project_app_->count("--intra-bandwidth") > 0;
    return run_model_project(project_);
  }
  return run_model_validate(validate_);
}

int run_model_fit(const ModelCommand::Fit& f) {
  if (!f.plot.empty()) check_plot_path(f.plot);
  std::optional<OutputTarget> out;
  if (!f.out.empty()) out = check_output("--out", f.out);
  const model::FitReport fit = model::fit_results(read_all(f.results), f.ranks);
  std::cout << model::fit_table(fit) << std::flush;
  if (out) write_output(*out, model::fit_json(fit));
  if (!f.plot.empty()) write_plot(f.plot, fit_plot(fit));
  return 0;
}

namespace {

struct Prediction {
  std::string group;
  int ranks = 0;
  uint64_t bytes = 0;
  double measured_us = 0, predicted_us = 0;
  double error() const { return (predicted_us - measured_us) / measured_us; }
};

// Every sweep result outside the fitted world sizes, against the fit's prediction.
std::vector<Prediction> predictions(const std::vector<judge::ResultFile>& files, const model::FitReport& fit,
                                    const std::vector<int>& fit_ranks) {
  std::vector<Prediction> out;
  for (const judge::ResultFile& file : files)
    for (const judge::Measured& m : file.results) {
      if (!m.profile.empty() || m.in_place || !m.variant.empty() || m.time_us.empty()) continue;
      if (std::find(fit_ranks.begin(), fit_ranks.end(), m.ranks) != fit_ranks.end()) continue;
      const model::GroupFit* g = fit.find({m.transport, m.collective, m.algorithm, 0, ""});
      if (g == nullptr) g = fit.find({m.transport, m.collective, m.algorithm, fit_ranks.front(), ""});
      if (g == nullptr) continue;
      out.push_back({g->key.describe(), m.ranks, m.bytes, judge::summarize_median(m.time_us).median,
                     g->predict_us(m.ranks, static_cast<double>(m.bytes))});
    }
  return out;
}

}  // namespace

int run_model_validate(const ModelCommand::Validate& v) {
  std::optional<OutputTarget> out;
  if (!v.json.empty()) out = check_output("--json", v.json);
  const std::vector<judge::ResultFile> files = read_all(v.results);
  const model::FitReport fit = model::fit_results(files, v.fit_ranks);
  const std::vector<Prediction> rows = predictions(files, fit, v.fit_ranks);
  if (rows.empty()) throw_invalid("model validate: no result outside --fit-ranks to predict: add runs at larger world sizes");
  std::cout << "# validate: fit on ranks";
  for (int r : v.fit_ranks) std::cout << " " << r;
  std::cout << "; predict every other world size measured\n#   group                                  ranks       size   "
               "measured_us  predicted_us   error\n";
  std::map<std::string, std::pair<double, double>> worst;  // per group, then "": from 1 MiB, below
  nlohmann::json json_rows = nlohmann::json::array();
  for (const Prediction& p : rows) {
    std::printf("  %-40s %5d %10s %13.1f %13.1f %+7.1f%%\n", p.group.c_str(), p.ranks, format_bytes(p.bytes).c_str(),
                p.measured_us, p.predicted_us, 100 * p.error());
    for (const std::string& key : {p.group, std::string()}) {
      double& w = p.bytes >= (1u << 20) ? worst[key].first : worst[key].second;
      w = std::max(w, std::abs(p.error()));
    }
    json_rows.push_back({{"group", p.group}, {"ranks", p.ranks}, {"bytes", p.bytes}, {"measured_us", p.measured_us},
                         {"predicted_us", p.predicted_us}, {"error", p.error()}});
  }
  for (const auto& [group, w] : worst)
    std::printf("# %s: %.1f%% for sizes of 1 MiB or more, %.1f%% below\n", group.empty() ? "worst error" : group.c_str(),
                100 * w.first, 100 * w.second);
  std::fflush(stdout);
  if (out)
    write_output(*out, nlohmann::json{{"schema", "ccbench.validation/1"}, {"fit", nlohmann::json::parse(model::fit_json(fit))},
                                      {"predictions", json_rows}, {"worst_error_from_1MiB", worst[""].first},
                                      {"worst_error_below_1MiB", worst[""].second}}
                           .dump(2) + "\n");
  return 0;
}

}  // namespace ccb::cli
