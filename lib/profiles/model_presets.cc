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
