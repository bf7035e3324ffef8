#include "profiles/parameter_layout.h"

#include "core/checked.h"

namespace ccb {

namespace {

// Appends tensors named "<prefix>.<name>" that belong to one block.
class LayoutBuilder {
 public:
  explicit LayoutBuilder(std::vector<ParameterTensor>& out) : out_(out) {}
  void scope(std::string prefix, int block) {
    prefix_ = std::move(prefix);
    block_ = block;
  }
  // A rows x cols tensor; a product past 64 bits names the tensor (and so the fields).
  void add(const std::string& name, uint64_t rows, uint64_t cols = 1, bool replicated = false) {
    out_.push_back({prefix_ + name, checked_mul(rows, cols, "the elements of " + prefix_ + name), block_, replicated});
  }
  void linear(const std::string& name, uint64_t in, uint64_t out, bool bias) {
    add(name + ".weight", in, out);
    if (bias) add(name + ".bias", out);
  }
  void norm(const std::string& name, uint64_t h, bool bias) {
    add(name + ".weight", h, 1, true);
    if (bias) add(name + ".bias", h, 1, true);
  }

 private:
  std::vector<ParameterTensor>& out_;
  std::string prefix_;
  int block_ = -1;
};

// A gated MLP (Llama's gate, up and down projections) of width `ffn`.
void gated_mlp(LayoutBuilder& b, const std::string& name, uint64_t h, uint64_t ffn) {
  b.linear(name + ".gate_proj", h, ffn, false);
  b.linear(name + ".up_proj", h, ffn, false);
  b.linear(name + ".down_proj", ffn, h, false);
}

// Block i's MLP: dense, or Mixtral's sparse MoE (a router and `experts` gated MLPs).
void llama_mlp(const ModelConfig& m, LayoutBuilder& b, uint64_t i) {
  if (!m.moe() || i < m.dense_layers) return gated_mlp(b, "mlp", m.hidden, m.ffn);
  b.linear("block_sparse_moe.gate", m.hidden, m.experts, false);
  for (uint64_t e = 0; e < m.experts; ++e) {  // Mixtral defines w1, w2, w3 in that order
    const std::string expert = "block_sparse_moe.experts." + std::to_string(e);
    b.linear(expert + ".w1", m.hidden, m.moe_ffn, false);
    b.linear(expert + ".w2", m.moe_ffn, m.hidden, false);
    b.linear(expert + ".w3", m.hidden, m.moe_ffn, false);
  }
}

void llama(const ModelConfig& m, LayoutBuilder& b) {
  const uint64_t h = m.hidden;
  b.add("embed_tokens.weight", m.vocab, h);
  for (uint64_t i = 0; i < m.layers; ++i) {
    b.scope("layers." + std::to_string(i) + ".", static_cast<int>(i));
    b.linear("self_attn.q_proj", h, m.attn_dim(), false);
    b.linear("self_attn.k_proj", h, m.kv_dim(), false);
    b.linear("self_attn.v_proj", h, m.kv_dim(), false);
    b.linear("self_attn.o_proj", m.attn_dim(), h, false);
    llama_mlp(m, b, i);
    b.norm("input_layernorm", h, false);
    b.norm("post_attention_layernorm", h, false);
  }
  b.scope("", -1);
  b.norm("norm", h, false);
  b.linear("lm_head", h, m.vocab, false);
}

// DeepSeek-V3: multi-head latent attention (queries and keys/values through low-rank
// latents, a decoupled RoPE part) and DeepSeekMoE (a sigmoid router with a per-expert
// bias, routed experts and one shared MLP of shared_experts x moe_ffn).
void deepseek(const ModelConfig& m, LayoutBuilder& b) {
  const uint64_t h = m.hidden, q_head = m.qk_nope_dim + m.qk_rope_dim;
  b.add("embed_tokens.weight", m.vocab, h);
  for (uint64_t i = 0; i < m.layers; ++i) {
    b.scope("layers." + std::to_string(i) + ".", static_cast<int>(i));
    if (m.q_lora_rank > 0) {
      b.linear("self_attn.q_a_proj", h, m.q_lora_rank, false);
      b.norm("self_attn.q_a_layernorm", m.q_lora_rank, false);
      b.linear("self_attn.q_b_proj", m.q_lora_rank, m.heads * q_head, false);
    } else {
      b.linear("self_attn.q_proj", h, m.heads * q_head, false);
    }
    b.linear("self_attn.kv_a_proj_with_mqa", h, m.kv_lora_rank + m.qk_rope_dim, false);
    b.norm("self_attn.kv_a_layernorm", m.kv_lora_rank, false);
    b.linear("self_attn.kv_b_proj", m.kv_lora_rank, m.heads * (m.qk_nope_dim + m.v_head_dim), false);
    b.linear("self_attn.o_proj", m.heads * m.v_head_dim, h, false);
    if (!m.moe() || i < m.dense_layers) {
      gated_mlp(b, "mlp", h, m.ffn);
    } else {
      for (uint64_t e = 0; e < m.experts; ++e) gated_mlp(b, "mlp.experts." + std::to_string(e), h, m.moe_ffn);
      b.add("mlp.gate.weight", m.experts, h);
      b.add("mlp.gate.e_score_correction_bias", m.experts);
      if (m.shared_experts > 0) gated_mlp(b, "mlp.shared_experts", h, checked_mul(m.shared_experts, m.moe_ffn, "shared_experts x moe_ffn"));
    }
    b.norm("input_layernorm", h, false);
    b.norm("post_attention_layernorm", h, false);
  }
  b.scope("", -1);
  b.norm("norm", h, false);
  b.linear("lm_head", h, m.vocab, false);
}

void gpt2(const ModelConfig& m, LayoutBuilder& b) {
  const uint64_t h = m.hidden;
  b.add("wte.weight", m.vocab, h);
  b.add("wpe.weight", m.positions, h);
  for (uint64_t i = 0; i < m.layers; ++i) {
    b.scope("h." + std::to_string(i) + ".", static_cast<int>(i));
    b.norm("ln_1", h, true);
    b.linear("attn.c_attn", h, m.attn_dim() + 2 * m.kv_dim(), true);
    b.linear("attn.c_proj", m.attn_dim(), h, true);
    b.norm("ln_2", h, true);
    b.linear("mlp.c_fc", h, m.ffn, true);
    b.linear("mlp.c_proj", m.ffn, h, true);
  }
  b.scope("", -1);
  b.norm("ln_f", h, true);  // the LM head is tied to wte
}

void bert(const ModelConfig& m, LayoutBuilder& b) {
  const uint64_t h = m.hidden;
  b.add("embeddings.word_embeddings.weight", m.vocab, h);
  b.add("embeddings.position_embeddings.weight", m.positions, h);
  b.add("embeddings.token_type_embeddings.weight", 2, h);
  b.norm("embeddings.LayerNorm", h, true);
  for (uint64_t i = 0; i < m.layers; ++i) {
    b.scope("encoder.layer." + std::to_string(i) + ".", static_cast<int>(i));
    b.linear("attention.self.query", h, m.attn_dim(), true);
    b.linear("attention.self.key", h, m.kv_dim(), true);
    b.linear("attention.self.value", h, m.kv_dim(), true);
    b.linear("attention.output.dense", m.attn_dim(), h, true);
    b.norm("attention.output.LayerNorm", h, true);
    b.linear("intermediate.dense", h, m.ffn, true);
    b.linear("output.dense", m.ffn, h, true);
    b.norm("output.LayerNorm", h, true);
  }
  b.scope("", -1);
  b.linear("pooler.dense", h, h, true);
}

void t5_attention(const ModelConfig& m, LayoutBuilder& b, const std::string& name, bool relative_bias) {
  b.linear(name + ".q", m.hidden, m.attn_dim(), false);
  b.linear(name + ".k", m.hidden, m.kv_dim(), false);
  b.linear(name + ".v", m.hidden, m.kv_dim(), false);
  b.linear(name + ".o", m.attn_dim(), m.hidden, false);
  if (relative_bias) b.add(name + ".relative_attention_bias.weight", 32, m.heads);  // 32 buckets
}

void t5(const ModelConfig& m, LayoutBuilder& b) {
  const uint64_t h = m.hidden;
  b.add("shared.weight", m.vocab, h);
  for (uint64_t i = 0; i < m.layers; ++i) {
    b.scope("encoder.block." + std::to_string(i) + ".", static_cast<int>(i));
    t5_attention(m, b, "layer.0.SelfAttention", i == 0);
    b.norm("layer.0.layer_norm", h, false);
    b.linear("layer.1.DenseReluDense.wi", h, m.ffn, false);
    b.linear("layer.1.DenseReluDense.wo", m.ffn, h, false);
    b.norm("layer.1.layer_norm", h, false);
  }
  b.scope("encoder.", -1);
  b.norm("final_layer_norm", h, false);
  for (uint64_t i = 0; i < m.decoder_layers; ++i) {
    b.scope("decoder.block." + std::to_string(i) + ".", static_cast<int>(m.layers + i));
    t5_attention(m, b, "layer.0.SelfAttention", i == 0);
    b.norm("layer.0.layer_norm", h, false);
    t5_attention(m, b, "layer.1.EncDecAttention", false);
    b.norm("layer.1.layer_norm", h, false);
    b.linear("layer.2.DenseReluDense.wi", h, m.ffn, false);
    b.linear("layer.2.DenseReluDense.wo", m.ffn, h, false);
    b.norm("layer.2.layer_norm", h, false);
  }
  b.scope("decoder.", -1);
  b.norm("final_layer_norm", h, false);  // the LM head is tied to shared (T5 1.0)
}

}  // namespace

std::vector<ParameterTensor> parameter_tensors(const ModelConfig& m) {
  std::vector<ParameterTensor> out;
  LayoutBuilder b(out);
  switch (m.arch) {
    case Architecture::kLlama: llama(m, b); break;
    case Architecture::kGpt2: gpt2(m, b); break;
    case Architecture::kBert: bert(m, b); break;
    case Architecture::kT5: t5(m, b); break;
    case Architecture::kDeepseek: deepseek(m, b); break;
  }
  return out;
}

uint64_t parameter_count(const ModelConfig& m) {
  uint64_t n = 0;
  for (const auto& t : parameter_tensors(m)) n = checked_add(n, t.elements, "the parameter count");
  return n;
}

}  // namespace ccb
