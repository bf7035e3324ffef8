// The collectives one training step issues, derived from a model configuration:
//  - ddp: PyTorch DDP's gradient buckets (25 MiB cap, a 1 MiB first bucket, tensors
//    never split), one AllReduce each;
//  - tp: Megatron tensor parallelism, micro_batch x seq x hidden activations, four
//    AllReduces per layer per micro-batch (two forward, two backward; T5's decoder
//    layers six, for cross-attention);
//  - fsdp: FSDP/ZeRO-3 FULL_SHARD with one unit per block: the block's parameters
//    all-gathered in forward and again in backward, its gradients reduce-scattered;
//  - pp: 1F1B pipeline parallelism: per micro-batch, the activations cross each stage
//    boundary forward and their gradients backward (send/recv of micro_batch x seq x
//    hidden);
//  - zero1, zero2: DeepSpeed ZeRO stages 1 and 2: gradients reduce-scattered in
//    DeepSpeed's default buckets (once per step, or once per micro-batch for stage 2,
//    which keeps only its shard), the updated parameters all-gathered once per step;
//  - ep: expert parallelism (mixture-of-experts models): per MoE layer and micro-batch,
//    the tokens' dispatch to their top_k experts and the combine back, forward and
//    backward: four all-to-alls of micro_batch x seq x top_k x hidden;
//  - hsdp: FSDP HYBRID_SHARD: fsdp's traffic within a shard group of shard_group ranks,
//    and each unit's gradient shard all-reduced across the groups.
// A profile's entries run over the job's world; a 3D-parallel job's groups, each with
// its own share of the step, are parallel_step.h's.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/collective_kind.h"
#include "core/dtype.h"
#include "profiles/model_config.h"
#include "profiles/parameter_layout.h"

namespace ccb {

enum class ParallelMode { kDdp, kTensorParallel, kFsdp, kPipeline, kZero1, kZero2, kHsdp, kExpertParallel };
std::string_view mode_name(ParallelMode m);        // "ddp", "tp", "fsdp", "pp", "zero1", "zero2", "hsdp", "ep"
ParallelMode parse_mode(std::string_view s);       // also "megatron", "zero3"
const std::vector<ParallelMode>& all_modes();
bool mode_applies(const ModelConfig& m, ParallelMode mode);  // ep: mixture-of-experts models only

// DeepSpeed's default reduce_bucket_size and allgather_bucket_size, in elements.
constexpr uint64_t kZeroBucketElements = 500'000'000;

struct ProfileEntry {
  CollectiveKind op = CollectiveKind::kAllreduce;
  uint64_t bytes = 0;   // the whole buffer, as nccl-tests' size (all-gather: the output)
  DataType dtype = DataType::kF32;
  uint64_t count = 1;   // calls per training step
  std::string what;     // "gradient bucket", "block parameters", ...
};

// Entries are distinct (op, bytes, dtype) in the order of their first call in a step.
struct Profile {
  std::string name;     // "llama2-7b:ddp"
  std::string summary;  // one line: the model and the rule applied
  std::vector<ProfileEntry> entries;
  uint64_t calls_per_step() const;
  uint64_t bytes_per_step() const;
  // Adds `count` calls, merged into the entry of the same op, size and type.
  void add(CollectiveKind op, uint64_t bytes, DataType dtype, uint64_t count, const std::string& what);
};

struct DdpBucketing {
  uint64_t cap = 25ull << 20;
  uint64_t first = 1ull << 20;
};
// Bucket sizes in bytes, in the order DDP reduces them (reverse of definition order).
std::vector<uint64_t> ddp_bucket_bytes(const ModelConfig& m, DdpBucketing rule = {});
// The same rule over any tensors (a rank's shard of a 3D-parallel model).
std::vector<uint64_t> ddp_bucket_bytes(const std::vector<ParameterTensor>& tensors, DataType grad_dtype,
                                       DdpBucketing rule = {});

// One micro-batch's activations in bytes: micro_batch x seq x hidden elements of dtype.
uint64_t activation_bytes(const ModelConfig& m);

// A model file is a regular file of at most this size (a config is a few hundred bytes).
constexpr uint64_t kMaxModelFileBytes = 1ull << 20;

// Throws kInvalidArgument naming the product that overflows 64 bits.
Profile derive_profile(const ModelConfig& m, ParallelMode mode);
// A preset's name or a model .json file; throws kInvalidArgument naming the presets
// when the name is neither.
ModelConfig load_model(const std::string& name);
// "llama2-7b:ddp", "llama2-70b:tp", "my-model.json:fsdp"; the mode defaults to ddp.
// Throws kInvalidArgument naming the presets when the name is unknown.
Profile resolve_profile(std::string_view spec);

}  // namespace ccb
