// `ccbench model fit|project|validate`: cost models from result files (lib/model). No
// ranks, no sockets.
//  - fit RESULT... [-o FIT.json] [--plot FILE]: the alpha-beta-gamma fit per
//    (transport, collective, algorithm, world size), and across world sizes;
//  - project (--fit FIT.json | --alpha 2us --bandwidth 100G) --ranks 8,64,512
//    (--profile MODEL:MODE | --profile MODEL --parallel tp=8,pp=4) [--what-if]: a
//    step's communication and time at each scale, for ring and tree;
//  - validate RESULT... --fit-ranks 2,3,4: fits on those world sizes and reports the
//    error of its prediction for every other one measured.
// Exit status: 0 done; 2 bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "subcommand.h"

namespace ccb::cli {

class ModelCommand final : public Subcommand {
 public:
  std::string name() const override { return "model"; }
  std::string summary() const override {
    return "Fit the alpha-beta cost of each collective to result files, project a training step to scale, validate the fit";
  }
  void add_options(CLI::App& sub) override;
  int run(const CLI::App& sub) override;

  struct Fit {
    std::vector<std::string> results;
    std::string out, plot;
    std::vector<int> ranks;
  };
  struct Project {
    std::string fit, transport, alpha, bandwidth, intra_alpha = "2us", intra_bandwidth = "1200G";
    bool intra_given = false;  // --intra-alpha or --intra-bandwidth on the command line
    std::vector<int> ranks;
    int gpus_per_node = 1;
    std::string profile, parallel, json;  // profile "": llama2-7b:ddp (--what-if: and bert-large:ddp)
    std::optional<double> compute_ms;
    std::string gpu = "a100";
    double mfu = 0.4;
    bool what_if = false;
    bool accept_poor_fit = false;
  };
  struct Validate {
    std::vector<std::string> results;
    std::vector<int> fit_ranks;
    std::string json;
  };

 private:
  Fit fit_;
  Project project_;
  Validate validate_;
  CLI::App *fit_app_ = nullptr, *project_app_ = nullptr, *validate_app_ = nullptr;
};

int run_model_fit(const ModelCommand::Fit& f);
int run_model_project(const ModelCommand::Project& p);
int run_model_validate(const ModelCommand::Validate& v);

}  // namespace ccb::cli
