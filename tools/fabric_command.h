// `ccbench fabric simulate`: a scan of a leaf-spine fabric answered by a model of link
// rates and shared paths (lib/fabric/fabric_sim.h), not by a network: the scan's plan,
// its retests, its rule and the tomography that names the broken element, at fleet
// sizes this machine cannot emulate. Faults are named elements with what a pair through
// them keeps. No ranks, no sockets. Exit status: 0 nothing slow, 1 a finding, 2 bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "fabric_flags.h"
#include "subcommand.h"

namespace ccb::cli {

class FabricCommand final : public Subcommand {
 public:
  std::string name() const override { return "fabric"; }
  std::string summary() const override { return "Fabric topologies: simulate a scan of a leaf-spine fabric on a model of its links"; }
  void add_options(CLI::App& sub) override;
  int run(const CLI::App& sub) override;

 private:
  FabricFlags fabric_;
  std::vector<std::string> faults_;
  double noise_ = 0.02;
  int retests_ = 2;
  double bw_frac_ = 0.93, lat_factor_ = 2.1;
  std::string bw_size_ = "1M", json_;
  int window_ = 16, bw_iters_ = 20, lat_iters_ = 300;
};

}  // namespace ccb::cli
