// The presets, from each model's published configuration (Hugging Face config.json or
// the paper). Sequence lengths are the ones the models were trained with.
#include "profiles/model_config.h"

namespace ccb {

namespace {

ModelConfig make(std::string name, Architecture arch, uint64_t hidden, uint64_t layers, uint64_t ffn, uint64_t heads,
                 uint64_t vocab, uint64_t seq) {
  ModelConfig m;
  m.name = std::move(name);
  m.arch = arch;
  m.hidden = hidden;
  m.layers = layers;
  m.ffn = ffn;
  m.heads = heads;
  m.vocab = vocab;
  m.seq = seq;
  return m;
}

std::vector<ModelConfig> build_presets() {
  using A = Architecture;
  std::vector<ModelConfig> p;
  ModelConfig bert = make("bert-large", A::kBert, 1024, 24, 4096, 16, 30522, 512);
  bert.positions = 512;
  bert.tensor_parallel = 2;
  p.push_back(bert);
  ModelConfig gpt2 = make("gpt2-xl", A::kGpt2, 1600, 48, 6400, 25, 50257, 1024);
  gpt2.positions = 1024;
  gpt2.tensor_parallel = 2;
  p.push_back(gpt2);
  ModelConfig t5 = make("t5-11b", A::kT5, 1024, 24, 65536, 128, 32128, 512);
  t5.decoder_layers = 24;
  t5.head_dim = 128;
  t5.tensor_parallel = 4;
  p.push_back(t5);
  p.push_back(make("llama2-7b", A::kLlama, 4096, 32, 11008, 32, 32000, 4096));
  p.push_back(make("llama2-13b", A::kLlama, 5120, 40, 13824, 40, 32000, 4096));
  ModelConfig l70 = make("llama2-70b", A::kLlama, 8192, 80, 28672, 64, 32000, 4096);
  l70.kv_heads = 8;
  p.push_back(l70);
  ModelConfig gpt3 = make("gpt3-175b", A::kGpt2, 12288, 96, 49152, 96, 50257, 2048);
  gpt3.positions = 2048;
  p.push_back(gpt3);
  // Mixture of experts: Mixtral 8x7B (32k context), and DeepSeek-V3 (pre-trained at 4k).
  ModelConfig mixtral = make("mixtral-8x7b", A::kLlama, 4096, 32, 14336, 32, 32000, 32768);
  mixtral.kv_heads = 8;
  mixtral.experts = 8;
  mixtral.top_k = 2;
  p.push_back(mixtral);
  ModelConfig dsv3 = make("deepseek-v3", A::kDeepseek, 7168, 61, 18432, 128, 129280, 4096);
  dsv3.experts = 256;
  dsv3.top_k = 8;
  dsv3.shared_experts = 1;
  dsv3.moe_ffn = 2048;
  dsv3.dense_layers = 3;
  dsv3.q_lora_rank = 1536;
  dsv3.kv_lora_rank = 512;
  dsv3.qk_nope_dim = 128;
  dsv3.qk_rope_dim = 64;
  dsv3.v_head_dim = 128;
  p.push_back(dsv3);
  for (auto& m : p) m = finish_model(m, "preset " + m.name);
  return p;
}

}  // namespace

const std::vector<ModelConfig>& model_presets() {
  static const std::vector<ModelConfig> presets = build_presets();
  return presets;
}

const ModelConfig* find_preset(std::string_view name) {
  for (const auto& m : model_presets())
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace ccb
