#include "model/compute_time.h"

#include <cstdio>

#include "core/error.h"
#include "core/units.h"
#include "profiles/parameter_layout.h"

namespace ccb::model {

const std::vector<Accelerator>& accelerator_presets() {
  static const std::vector<Accelerator> presets{{"a100", 312}, {"h100", 989}};
  return presets;
}

double parse_tflops(const std::string& text) {
  for (const Accelerator& a : accelerator_presets())
    if (text == a.name) return a.bf16_tflops;
  const auto [v, used] = leading_number(text);
  if (used == 0 || used != text.size() || !(v > 0) || v > 1e6)
    throw_invalid("--gpu-tflops '" + text + "': give a100, h100 or the dense bf16 TFLOPS as a number (989)");
  return v;
}

double active_parameters(const ModelConfig& m) {
  const double all = static_cast<double>(parameter_count(m));
  if (!m.moe()) return all;
  const double expert = 3.0 * static_cast<double>(m.hidden) * static_cast<double>(m.moe_ffn);  // a gated MLP
  const double idle = static_cast<double>(m.experts - m.top_k) * expert * static_cast<double>(m.moe_layers());
  return all - idle;
}

double training_flops_per_token(const ModelConfig& m) {
  const double blocks = static_cast<double>(m.layers + m.decoder_layers);
  const double attention = 12.0 * blocks * static_cast<double>(m.seq) * static_cast<double>(m.attn_dim());
  return 6.0 * active_parameters(m) + attention;
}

double tokens_per_step(const ModelConfig& m) {
  return static_cast<double>(m.micro_batch) * static_cast<double>(m.micro_batches) * static_cast<double>(m.seq);
}

ComputeTime derive_compute_time(const ModelConfig& m, double tflops, double mfu, int model_parallel) {
  if (!(tflops > 0) || !(mfu > 0) || mfu > 1) throw_invalid("--gpu-tflops must be positive and --mfu in (0, 1]");
  const double flops = training_flops_per_token(m) * tokens_per_step(m) / model_parallel;
  ComputeTime t;
  t.ms = flops / (tflops * 1e12 * mfu) * 1e3;
  char how[256];
  std::snprintf(how, sizeof how, "derived: (6 x %.3g params + attention) x %.0f tokens%s at %.0f TFLOPS x %.2f MFU",
                active_parameters(m), tokens_per_step(m),
                model_parallel > 1 ? (" / " + std::to_string(model_parallel) + " GPUs").c_str() : "", tflops, mfu);
  t.how = how;
  return t;
}

}  // namespace ccb::model
