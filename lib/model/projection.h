// `ccbench model project`: what a training step's communication costs at scale, from a
// fit (fit.h) or a given latency and bandwidth, for ring and tree AllReduce.
//
// The layout: `gpus_per_node` GPUs per node joined by their own (intra) latency and
// bandwidth, one NIC per GPU (rail-optimised), so a group with several members on a
// node runs hierarchically: within the node a reduce-scatter, across nodes the
// collective on each GPU's 1/local share over its own rail, within the node an
// all-gather. Collectives without a hierarchical form run flat over the inter-node
// network. Nothing overlaps: the step is compute plus communication, with no
// congestion and no GPU kernels (the note printed with every projection says so).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/cost_formulas.h"
#include "model/fit.h"
#include "profiles/parallel_step.h"
#include "profiles/profile.h"

namespace ccb::model {

// The network's parameters for each collective and algorithm: a fit's group for it
// when there is one (the fit over every world size first), else its AllReduce ring's.
class Network {
 public:
  // Across nodes, the fit's flat AllReduce ring on `transport` (else a hier sweep's
  // across-hosts leg); within a node, a hier sweep's within-hosts leg where the fit has
  // one. Throws naming the transports.
  static Network from_fit(const FitReport& fit, const std::string& transport);
  static Network given(CostParams inter, std::string describe);
  Network with_intra(CostParams intra, std::string describe) const;
  // Whether the parameters within a node came from a measurement.
  bool intra_measured() const { return intra_source_.starts_with("measured"); }

  double inter_us(const std::string& collective, const std::string& algorithm, int ranks, double bytes) const;
  double intra_us(const std::string& collective, const std::string& algorithm, int ranks, double bytes) const;
  // Where each level's parameters came from: "measured: fit of ...", "given: ...",
  // "assumed: ...".
  const std::string& source() const { return source_; }
  const std::string& intra_source() const { return intra_source_; }
  // How far a projection at `ranks` and `bytes` reaches beyond what the fit measured;
  // "" for given parameters.
  std::string extrapolation(int ranks, double max_bytes) const;
  const std::optional<FitReport>& fit() const { return fit_; }

 private:
  std::optional<FitReport> fit_;
  std::string transport_;
  CostParams inter_{}, intra_{};
  std::string source_, intra_source_;
};

// One call of a collective by a group of `group` ranks, consecutive members `stride`
// ranks apart, `gpus_per_node` ranks on a node.
double group_call_us(const Network& net, const std::string& collective, const std::string& algorithm, int group,
                     int stride, int gpus_per_node, double bytes);

struct ScaleRow {
  int ranks = 0;
  double comm_ring_us = 0, comm_tree_us = 0;  // the step's communication
  double step_ring_ms = 0, step_tree_ms = 0;  // compute plus communication
  double efficiency_ring = 0, efficiency_tree = 0;  // weak scaling against the first scale
  std::vector<std::pair<std::string, double>> calls_ring_us;  // each entry's one call: "allreduce 25 MiB"
  std::string extrapolation;
};

struct ProjectionInput {
  ModelConfig model;
  std::optional<ParallelMode> mode;        // --profile MODEL:MODE, or
  std::optional<std::string> parallel;     // --parallel tp=T,pp=P,dp=D
  std::vector<int> ranks;
  int gpus_per_node = 1;
  double compute_ms = 0;
};

// Throws kInvalidArgument when a scale does not fit the --parallel layout.
std::vector<ScaleRow> project(const Network& net, const ProjectionInput& in);

// The tensor and pipeline sizes the model is split over (compute is divided by them).
int model_parallel_ways(const ProjectionInput& in, int ranks);

}  // namespace ccb::model
