// `ccbench report RESULT... --out DIR [--baseline BASE] [--rules RULES]`: writes DIR/index.html
// (self-contained, plots inline), DIR/summary.md and the plots as SVG and PNG
// (lib/report). `ccbench run --plot FILE.svg|.png` draws the run's bus bandwidth at its
// end. No ranks, no sockets. Exit status: 0 written; 2 bad input, or gnuplot missing
// (the rest of the report is still written).
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "subcommand.h"

namespace ccb::cli {

class ReportCommand final : public Subcommand {
 public:
  std::string name() const override { return "report"; }
  std::string summary() const override { return "Write an HTML report with plots, and a Markdown summary, of result files"; }
  void add_options(CLI::App& sub) override;
  int run(const CLI::App& sub) override;

 private:
  std::vector<std::string> results_;
  std::string out_dir_, baseline_, rules_;
  bool allow_incomplete_ = false;
};

// --plot: judged before any rank starts (the path, its kind, gnuplot installed).
void check_plot_path(const std::string& path);
// Draws the bus bandwidth plot of a run's record (its JSON text) into path.
void write_run_plot(const std::string& path, const std::string& record_json);

// Makes DIR if it is missing (its parent must exist); refuses a link or a file.
void prepare_output_dir(const std::string& flag, const std::string& dir);

}  // namespace ccb::cli
