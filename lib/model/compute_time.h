// A training step's compute time, for the communication's share of a step: the
// standard count of 6 flops per parameter and token (forward 2, backward 4) plus the
// attention's 12 x layers x seq x attention width per token (PaLM's appendix B), at an
// accelerator's dense bf16 peak times the model flops utilisation (MFU) reached.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "profiles/model_config.h"

namespace ccb::model {

struct Accelerator {
  std::string_view name;
  double bf16_tflops;  // dense, no sparsity
};
const std::vector<Accelerator>& accelerator_presets();  // a100 312, h100 989
// A preset's name or a number of TFLOPS; throws kInvalidArgument naming the presets.
double parse_tflops(const std::string& text);

// Parameters a token passes through: a mixture of experts counts top_k routed experts
// (and the shared ones), not all of them.
double active_parameters(const ModelConfig& m);
double training_flops_per_token(const ModelConfig& m);
// Tokens one data-parallel rank trains on per step: micro_batch x micro_batches x seq.
double tokens_per_step(const ModelConfig& m);

struct ComputeTime {
  double ms = 0;
  std::string how;  // "derived: 6 x 6.74e9 params x 4096 tokens + attention at 312 TFLOPS x 0.40 MFU"
};
// One GPU's share when the model is split over `model_parallel` GPUs (tp x pp).
ComputeTime derive_compute_time(const ModelConfig& m, double tflops, double mfu, int model_parallel = 1);

}  // namespace ccb::model
