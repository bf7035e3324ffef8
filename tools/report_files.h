// The --json, --markdown and --junit files of a judging command: every path is judged
// before any input is read, and each file is written once the verdict is known.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/files.h"

namespace ccb::cli {

template <typename Verdict>
class ReportFiles {
 public:
  using Render = std::string (*)(const Verdict&);
  ReportFiles(Render json, Render markdown, Render junit) : renders_{json, markdown, junit} {}

  void add_options(CLI::App& sub) {
    sub.add_option("--json", paths_[0], "Also write the verdict as JSON")->group("Output");
    sub.add_option("--markdown", paths_[1], "Also write it as Markdown (for a CI comment)")->group("Output");
    sub.add_option("--junit", paths_[2], "Also write JUnit XML (a failed key or rule is a failure)")->group("Output");
  }
  // Judges the paths given (check_output): call before reading any input.
  void check(const CLI::App& sub) {
    static const char* flags[] = {"--json", "--markdown", "--junit"};
    for (int i = 0; i < 3; ++i)
      if (sub.count(flags[i]) > 0) targets_.emplace_back(check_output(flags[i], paths_[i]), renders_[i]);
  }
  void write(const Verdict& v) const {
    for (const auto& [target, render] : targets_) write_output(target, render(v));
  }

 private:
  std::string paths_[3];
  Render renders_[3];
  std::vector<std::pair<OutputTarget, Render>> targets_;
};

}  // namespace ccb::cli
