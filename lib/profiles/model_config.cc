#include "profiles/model_config.h"

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace ccb {

using nlohmann::json;

std::string_view architecture_name(Architecture a) {
  switch (a) {
    case Architecture::kLlama: return "llama";
    case Architecture::kGpt2: return "gpt2";
    case Architecture::kBert: return "bert";
    case Architecture::kT5: return "t5";
    case Architecture::kDeepseek: return "deepseek";
  }
  return "?";
}

Architecture parse_architecture(std::string_view s) {
  for (auto a : {Architecture::kLlama, Architecture::kGpt2, Architecture::kBert, Architecture::kT5, Architecture::kDeepseek})
    if (s == architecture_name(a)) return a;
  throw_invalid("unknown architecture '" + std::string(s) + "': use llama, gpt2, bert, t5 or deepseek");
}

// Upper bounds that keep every derived size inside 64 bits where the formulas multiply
// fields (heads x head_dim...), and a model's tensor list inside memory (layers). The
// largest published models stay far below each.
struct FieldBound {
  const char* name;
  uint64_t ModelConfig::*field;
  uint64_t max;
};
constexpr FieldBound kBounds[] = {
    {"hidden", &ModelConfig::hidden, 1ull << 32},      {"layers", &ModelConfig::layers, 1ull << 16},
    {"decoder_layers", &ModelConfig::decoder_layers, 1ull << 16}, {"ffn", &ModelConfig::ffn, 1ull << 32},
    {"heads", &ModelConfig::heads, 1ull << 20},        {"kv_heads", &ModelConfig::kv_heads, 1ull << 20},
    {"head_dim", &ModelConfig::head_dim, 1ull << 20},  {"vocab", &ModelConfig::vocab, 1ull << 32},
    {"positions", &ModelConfig::positions, 1ull << 32}, {"seq", &ModelConfig::seq, 1ull << 32},
    {"micro_batch", &ModelConfig::micro_batch, 1ull << 32}, {"micro_batches", &ModelConfig::micro_batches, 1ull << 32},
    {"tensor_parallel", &ModelConfig::tensor_parallel, 1ull << 20}, {"shard_group", &ModelConfig::shard_group, 1ull << 20},
    {"experts", &ModelConfig::experts, 1ull << 16},    {"top_k", &ModelConfig::top_k, 1ull << 16},
    {"shared_experts", &ModelConfig::shared_experts, 1ull << 16}, {"moe_ffn", &ModelConfig::moe_ffn, 1ull << 32},
    {"dense_layers", &ModelConfig::dense_layers, 1ull << 16}, {"q_lora_rank", &ModelConfig::q_lora_rank, 1ull << 20},
    {"kv_lora_rank", &ModelConfig::kv_lora_rank, 1ull << 20}, {"qk_nope_dim", &ModelConfig::qk_nope_dim, 1ull << 20},
    {"qk_rope_dim", &ModelConfig::qk_rope_dim, 1ull << 20}, {"v_head_dim", &ModelConfig::v_head_dim, 1ull << 20},
};

// Routed experts x MoE layers bounds the tensor list (three tensors per expert), so a
// hostile file cannot ask for billions of them.
constexpr uint64_t kMaxExpertTensors = 1ull << 22;

// The mixture-of-experts and latent-attention fields, checked together.
static void finish_experts(ModelConfig& m, const std::string& source) {
  if (m.top_k > 0 && m.experts == 0) throw_invalid(source + ": 'top_k' without 'experts': give both, or neither for a dense model");
  if (m.experts == 0) return;
  if (m.top_k == 0)
    throw_invalid(source + ": 'experts' needs 'top_k', the experts each token is routed to (Mixtral: 2)");
  if (m.top_k > m.experts) throw_invalid(source + ": 'top_k' is above 'experts': a token goes to at most every expert");
  if (m.dense_layers >= m.layers) throw_invalid(source + ": 'dense_layers' must be below 'layers', or the model has no experts");
  if (m.experts * m.moe_layers() > kMaxExpertTensors)
    throw_invalid(source + ": experts x MoE layers is " + std::to_string(m.experts * m.moe_layers()) + ", above the limit of " +
                  std::to_string(kMaxExpertTensors));
  if (m.moe_ffn == 0) m.moe_ffn = m.ffn;
}

ModelConfig finish_model(ModelConfig m, const std::string& source) {
  for (const FieldBound& b : kBounds)
    if (m.*b.field > b.max)
      throw_invalid(source + ": '" + b.name + "' is " + std::to_string(m.*b.field) + ", above the limit of " +
                    std::to_string(b.max));
  auto need = [&](uint64_t v, const char* field) {
    if (v == 0) throw_invalid(source + ": '" + field + "' must be a positive integer");
  };
  need(m.hidden, "hidden");
  need(m.layers, "layers");
  need(m.ffn, "ffn");
  need(m.heads, "heads");
  need(m.vocab, "vocab");
  need(m.seq, "seq");
  need(m.micro_batch, "micro_batch");
  need(m.micro_batches, "micro_batches");
  need(m.shard_group, "shard_group");
  if (m.kv_heads == 0) m.kv_heads = m.heads;
  if (m.head_dim == 0) {
    if (m.hidden % m.heads != 0) throw_invalid(source + ": hidden is not a multiple of heads: give head_dim");
    m.head_dim = m.hidden / m.heads;
  }
  if (m.heads % m.kv_heads != 0) throw_invalid(source + ": heads must be a multiple of kv_heads");
  if (m.arch == Architecture::kT5) need(m.decoder_layers, "decoder_layers");
  if ((m.arch == Architecture::kGpt2 || m.arch == Architecture::kBert) && m.positions == 0) m.positions = m.seq;
  if (m.arch == Architecture::kDeepseek) {
    need(m.kv_lora_rank, "kv_lora_rank");
    need(m.qk_nope_dim, "qk_nope_dim");
    need(m.qk_rope_dim, "qk_rope_dim");
    need(m.v_head_dim, "v_head_dim");
  }
  finish_experts(m, source);
  return m;
}

// A positive integer field (or, with `zero_ok`, zero or more).
static uint64_t get_count(const json& j, const char* key, uint64_t fallback, const std::string& source, bool zero_ok = false) {
  if (!j.contains(key)) return fallback;
  const json& v = j.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < (zero_ok ? 0 : 1))
    throw_invalid(source + ": '" + key + "' must be a " + (zero_ok ? "whole number" : "positive integer") + ", not " + v.dump());
  return v.get<uint64_t>();
}

ModelConfig model_from_json(const std::string& text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse errors, and numbers out of range (406)
    throw_invalid(source + " is not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw_invalid(source + ": a model is a JSON object, e.g. {\"name\": ..., \"hidden\": 4096, ...}");
  static const char* known[] = {"name", "architecture", "hidden", "layers", "decoder_layers", "ffn", "heads",
                                "kv_heads", "head_dim", "vocab", "positions", "seq", "micro_batch",
                                "micro_batches", "dtype", "grad_dtype", "tensor_parallel", "shard_group",
                                "experts", "top_k", "shared_experts", "moe_ffn", "dense_layers", "q_lora_rank",
                                "kv_lora_rank", "qk_nope_dim", "qk_rope_dim", "v_head_dim"};
  for (const auto& [key, value] : j.items())
    if (std::find(std::begin(known), std::end(known), key) == std::end(known))
      throw_invalid(source + ": unknown field '" + key + "' (see the README's model fields)");
  ModelConfig m;
  try {
    m.name = j.value("name", source);
    m.arch = parse_architecture(j.value("architecture", std::string("llama")));
    m.dtype = parse_dtype(j.value("dtype", std::string("bfloat16")));
    m.grad_dtype = parse_dtype(j.value("grad_dtype", std::string("float")));
  } catch (const json::exception&) {
    throw_invalid(source + ": name, architecture, dtype and grad_dtype are strings");
  }
  m.hidden = get_count(j, "hidden", 0, source);
  m.layers = get_count(j, "layers", 0, source);
  m.decoder_layers = get_count(j, "decoder_layers", 0, source);
  m.ffn = get_count(j, "ffn", 4 * m.hidden, source);
  m.heads = get_count(j, "heads", 0, source);
  m.kv_heads = get_count(j, "kv_heads", 0, source);
  m.head_dim = get_count(j, "head_dim", 0, source);
  m.vocab = get_count(j, "vocab", 0, source);
  m.positions = get_count(j, "positions", 0, source);
  m.seq = get_count(j, "seq", 0, source);
  m.micro_batch = get_count(j, "micro_batch", 1, source);
  m.micro_batches = get_count(j, "micro_batches", 1, source);
  m.tensor_parallel = get_count(j, "tensor_parallel", 8, source);
  m.shard_group = get_count(j, "shard_group", 8, source);
  m.experts = get_count(j, "experts", 0, source, true);
  m.top_k = get_count(j, "top_k", 0, source, true);
  m.shared_experts = get_count(j, "shared_experts", 0, source, true);
  m.moe_ffn = get_count(j, "moe_ffn", 0, source);
  m.dense_layers = get_count(j, "dense_layers", 0, source, true);
  m.q_lora_rank = get_count(j, "q_lora_rank", 0, source, true);
  m.kv_lora_rank = get_count(j, "kv_lora_rank", 0, source);
  m.qk_nope_dim = get_count(j, "qk_nope_dim", 0, source);
  m.qk_rope_dim = get_count(j, "qk_rope_dim", 0, source);
  m.v_head_dim = get_count(j, "v_head_dim", 0, source);
  return finish_model(m, source);
}

}  // namespace ccb
