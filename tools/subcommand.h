// A judging subcommand of ccbench (compare, baseline, check, report, history): no ranks,
// no sockets, result files in and verdicts out. A new one is a file with a class like
// these and one row in ccbench.cc's list.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ccb::cli {

class Subcommand {
 public:
  virtual ~Subcommand() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  virtual void add_options(CLI::App& sub) = 0;
  virtual int run(const CLI::App& sub) = 0;  // the exit status
};

}  // namespace ccb::cli
