// `ccbench qualify --spec spec.yaml`: a NIC or fabric qualification in one command. The
// spec's battery runs in order on every rank (point-to-point tests, collectives, a soak,
// the pairwise scan when there are several hosts, the host manifest); its result
// record is then judged by the spec's rules (judge/rules.h), the scan by its verdict and
// the manifest by its warnings. It writes the record (--json), JUnit XML (--junit) and a
// report (--report DIR: HTML with plots, Markdown).
// Exit status: 0 pass, 1 fail, 2 a bad spec or flags (before any rank starts).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "judge/qualify_spec.h"
#include "run_command.h"

namespace ccb::cli {

struct QualifyCommand {
  RunCommand base;          // how ranks start and connect; --json, --junit; the command line
  std::string spec_path;
  std::string report_dir;   // --report DIR
  judge::QualifySpec spec;  // loaded before any rank starts, and again by each rank
  std::string topology, plan = "full";  // the scan's fabric (scan_fabric.h)
};

void add_qualify_options(CLI::App& qualify, QualifyCommand& c);
// Loads the spec and judges everything that can be judged before ranks exist: the
// transport against the spec's, each test's collective, algorithm, type and sizes
// against the world, the output paths.
void prepare_qualify(const CLI::App& app, QualifyCommand& c, int world, bool writes_outputs);
int run_qualify_rank(QualifyCommand& c);

}  // namespace ccb::cli
