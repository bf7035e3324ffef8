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
  }
  return "?";
}

Architecture parse_architecture(std::string_view s) {
  for (auto a : {Architecture::kLlama, Architecture::kGpt2, Architecture::kBert, Architecture::kT5})
    if (s == architecture_name(a)) return a;
  throw_invalid("unknown architecture '" + std::string(s) + "': use llama, gpt2, bert or t5");
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
};

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
  return m;
}

static uint64_t get_count(const json& j, const char* key, uint64_t fallback, const std::string& source) {
  if (!j.contains(key)) return fallback;
  const json& v = j.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() <= 0)
    throw_invalid(source + ": '" + key + "' must be a positive integer, not " + v.dump());
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
                                "micro_batches", "dtype", "grad_dtype", "tensor_parallel", "shard_group"};
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
  return finish_model(m, source);
}

}  // namespace ccb
