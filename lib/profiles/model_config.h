// A transformer described by the numbers in its published configuration. Message
// sizes are derived from these, never listed by hand.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.h"

namespace ccb {

// Which Hugging Face module layout the parameters follow (their order and biases
// matter: DDP buckets tensors in definition order and never splits one).
enum class Architecture {
  kLlama,  // RMSNorm, gated MLP, no biases, untied LM head (Llama 2)
  kGpt2,   // LayerNorm, fused QKV with biases, learned positions, tied head (GPT-2, GPT-3)
  kBert,   // post-LN encoder with biases, token types, pooler (BERT)
  kT5,     // encoder-decoder, no biases, relative position buckets, tied head (T5 1.0)
  kDeepseek,  // Llama's blocks with multi-head latent attention and DeepSeekMoE (DeepSeek-V3)
};

struct ModelConfig {
  std::string name;
  Architecture arch = Architecture::kLlama;
  uint64_t hidden = 0;
  uint64_t layers = 0;          // transformer blocks (T5: encoder blocks)
  uint64_t decoder_layers = 0;  // T5 only
  uint64_t ffn = 0;
  uint64_t heads = 0;
  uint64_t kv_heads = 0;        // grouped-query attention; defaults to heads
  uint64_t head_dim = 0;        // defaults to hidden / heads (T5-11B: 128 with hidden 1024)
  uint64_t vocab = 0;
  uint64_t positions = 0;       // learned position embeddings (GPT-2, BERT)
  uint64_t seq = 0;             // training sequence length
  uint64_t micro_batch = 1;
  uint64_t micro_batches = 1;   // per step (gradient accumulation)
  DataType dtype = DataType::kBF16;       // activations, FSDP parameters and gradients
  DataType grad_dtype = DataType::kF32;   // DDP gradient buckets (AMP keeps fp32 weights)
  uint64_t tensor_parallel = 8;           // the TP group the preset is usually run with
  uint64_t shard_group = 8;               // HSDP: ranks that shard the parameters (a node)
  // Mixture of experts (experts 0: dense). Each token goes to top_k of the routed
  // experts (moe_ffn wide; default ffn) and to every shared expert; the first
  // dense_layers blocks keep a dense MLP (DeepSeek-V3: 3).
  uint64_t experts = 0, top_k = 0, shared_experts = 0, moe_ffn = 0, dense_layers = 0;
  // Multi-head latent attention (deepseek): q_lora_rank 0 projects queries directly.
  uint64_t q_lora_rank = 0, kv_lora_rank = 0, qk_nope_dim = 0, qk_rope_dim = 0, v_head_dim = 0;

  uint64_t kv_dim() const { return kv_heads * head_dim; }
  uint64_t attn_dim() const { return heads * head_dim; }
  bool moe() const { return experts > 0; }
  uint64_t moe_layers() const { return moe() ? layers - dense_layers : 0; }
};

std::string_view architecture_name(Architecture a);
Architecture parse_architecture(std::string_view s);  // throws kInvalidArgument

// Checks the numbers and fills defaults; throws kInvalidArgument naming the field.
ModelConfig finish_model(ModelConfig m, const std::string& source);
// A user's model: a small JSON object with the fields above (see README). `source`
// names the file in errors.
ModelConfig model_from_json(const std::string& text, const std::string& source);

const std::vector<ModelConfig>& model_presets();
const ModelConfig* find_preset(std::string_view name);  // nullptr when unknown

}  // namespace ccb
