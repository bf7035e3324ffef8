#include "profiles/profile.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "core/checked.h"
#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "profiles/parameter_layout.h"

namespace ccb {

std::string_view mode_name(ParallelMode m) {
  switch (m) {
    case ParallelMode::kDdp: return "ddp";
    case ParallelMode::kTensorParallel: return "tp";
    case ParallelMode::kFsdp: return "fsdp";
    case ParallelMode::kPipeline: return "pp";
    case ParallelMode::kZero1: return "zero1";
    case ParallelMode::kZero2: return "zero2";
    case ParallelMode::kHsdp: return "hsdp";
    case ParallelMode::kExpertParallel: return "ep";
  }
  return "?";
}

const std::vector<ParallelMode>& all_modes() {
  static const std::vector<ParallelMode> modes{ParallelMode::kDdp,   ParallelMode::kTensorParallel, ParallelMode::kFsdp,
                                               ParallelMode::kPipeline, ParallelMode::kZero1,      ParallelMode::kZero2,
                                               ParallelMode::kHsdp, ParallelMode::kExpertParallel};
  return modes;
}

bool mode_applies(const ModelConfig& m, ParallelMode mode) { return mode != ParallelMode::kExpertParallel || m.moe(); }

ParallelMode parse_mode(std::string_view s) {
  if (s == "megatron") return ParallelMode::kTensorParallel;
  if (s == "zero3") return ParallelMode::kFsdp;
  std::string names;
  for (ParallelMode m : all_modes()) {
    if (s == mode_name(m)) return m;
    names += (names.empty() ? "" : ", ") + std::string(mode_name(m));
  }
  throw_invalid("unknown parallelism '" + std::string(s) + "': use " + names + " (e.g. llama2-7b:tp)");
}

uint64_t Profile::calls_per_step() const {
  uint64_t n = 0;
  for (const auto& e : entries) n = checked_add(n, e.count, "the calls per step");
  return n;
}

uint64_t Profile::bytes_per_step() const {
  uint64_t n = 0;
  for (const auto& e : entries) n = checked_add(n, checked_mul(e.count, e.bytes, "the bytes per step"), "the bytes per step");
  return n;
}

void Profile::add(CollectiveKind op, uint64_t bytes, DataType dtype, uint64_t count, const std::string& what) {
  for (auto& e : entries)
    if (e.op == op && e.bytes == bytes && e.dtype == dtype) {
      e.count = checked_add(e.count, count, "the calls of " + what);
      return;
    }
  entries.push_back({op, bytes, dtype, count, what});
}

// DDP fills buckets in definition order: a bucket closes once it reaches its limit
// (1 MiB for the first, the cap after), so a tensor larger than the limit makes a
// bucket of its own size. Gradients become ready in reverse, so buckets reduce in reverse.
std::vector<uint64_t> ddp_bucket_bytes(const std::vector<ParameterTensor>& tensors, DataType grad_dtype,
                                       DdpBucketing rule) {
  std::vector<uint64_t> buckets;
  uint64_t open = 0;
  const uint64_t esize = dtype_size(grad_dtype);
  for (const auto& t : tensors) {
    open = checked_add(open, checked_mul(t.elements, esize, t.name + " in bytes"), "a gradient bucket");
    if (open >= (buckets.empty() ? rule.first : rule.cap)) {
      buckets.push_back(open);
      open = 0;
    }
  }
  if (open > 0) buckets.push_back(open);
  std::reverse(buckets.begin(), buckets.end());
  return buckets;
}

std::vector<uint64_t> ddp_bucket_bytes(const ModelConfig& m, DdpBucketing rule) {
  return ddp_bucket_bytes(parameter_tensors(m), m.grad_dtype, rule);
}

static std::string billions(uint64_t n) {
  std::ostringstream s;
  s.precision(3);
  s << static_cast<double>(n) / 1e9 << " B parameters";
  return s.str();
}

static Profile ddp(const ModelConfig& m) {
  Profile p;
  auto buckets = ddp_bucket_bytes(m);
  for (uint64_t b : buckets) p.add(CollectiveKind::kAllreduce, b, m.grad_dtype, 1, "gradient bucket");
  p.summary = m.name + " (" + billions(parameter_count(m)) + "), DDP: " + std::to_string(buckets.size()) +
              " gradient buckets of " + std::string(dtype_name(m.grad_dtype)) + ", 25 MiB cap, first bucket 1 MiB";
  return p;
}

uint64_t activation_bytes(const ModelConfig& m) {
  const std::string product = "micro_batch x seq x hidden x bytes per element";
  return checked_mul(checked_mul(checked_mul(m.micro_batch, m.seq, product), m.hidden, product), dtype_size(m.dtype),
                     product);
}

static Profile tensor_parallel(const ModelConfig& m) {
  Profile p;
  const uint64_t bytes = activation_bytes(m);
  const uint64_t per_micro_batch = 4 * m.layers + 6 * m.decoder_layers;  // layers are bounded (model_config.h)
  p.add(CollectiveKind::kAllreduce, bytes, m.dtype,
        checked_mul(per_micro_batch, m.micro_batches, "AllReduces per micro-batch x micro_batches"), "layer activations");
  p.summary = m.name + ", Megatron TP=" + std::to_string(m.tensor_parallel) + ": micro-batch " +
              std::to_string(m.micro_batch) + " x seq " + std::to_string(m.seq) + " x hidden " +
              std::to_string(m.hidden) + " " + std::string(dtype_name(m.dtype)) + ", " +
              std::to_string(per_micro_batch) + " AllReduces per micro-batch x " + std::to_string(m.micro_batches);
  return p;
}

// FSDP's units: block -> parameter elements; -1 is the root unit (embeddings, head).
static std::map<int, uint64_t> fsdp_units(const ModelConfig& m) {
  std::map<int, uint64_t> unit_elements;
  for (const auto& t : parameter_tensors(m))
    unit_elements[t.block] = checked_add(unit_elements[t.block], t.elements, "the elements of an FSDP unit");
  for (auto& [block, elements] : unit_elements) checked_mul(elements, dtype_size(m.dtype), "an FSDP unit in bytes");
  return unit_elements;
}

static Profile fsdp(const ModelConfig& m) {
  std::map<int, uint64_t> unit_elements = fsdp_units(m);
  const uint64_t esize = dtype_size(m.dtype);
  Profile p;
  // The root unit is gathered first and kept through backward; each block is gathered
  // in forward, freed, gathered again in backward, and its gradients reduce-scattered.
  p.add(CollectiveKind::kAllGather, unit_elements[-1] * esize, m.dtype, 1, "root parameters (embeddings, head)");
  for (const auto& [block, elements] : unit_elements)
    if (block >= 0) p.add(CollectiveKind::kAllGather, elements * esize, m.dtype, 2, "block parameters");
  for (const auto& [block, elements] : unit_elements)
    if (block >= 0) p.add(CollectiveKind::kReduceScatter, elements * esize, m.dtype, 1, "block gradients");
  p.add(CollectiveKind::kReduceScatter, unit_elements[-1] * esize, m.dtype, 1, "root gradients");
  p.summary = m.name + " (" + billions(parameter_count(m)) + "), FSDP FULL_SHARD: one unit per block (" +
              std::to_string(unit_elements.size() - 1) + ") plus the root, " + std::string(dtype_name(m.dtype)) +
              " parameters and gradients";
  return p;
}

// 1F1B: each of a step's micro-batches crosses every stage boundary once forward (its
// activations) and once backward (their gradients), the same size both ways.
static Profile pipeline(const ModelConfig& m) {
  Profile p;
  p.add(CollectiveKind::kSendRecv, activation_bytes(m), m.dtype, checked_mul(2, m.micro_batches, "2 x micro_batches"),
        "stage-boundary activations and their gradients");
  p.summary = m.name + ", 1F1B pipeline: per micro-batch and stage boundary, micro-batch " + std::to_string(m.micro_batch) +
              " x seq " + std::to_string(m.seq) + " x hidden " + std::to_string(m.hidden) + " " +
              std::string(dtype_name(m.dtype)) + " forward and back, x " + std::to_string(m.micro_batches);
  return p;
}

// Every parameter in DeepSpeed's buckets of kZeroBucketElements, the last one partial.
static std::vector<uint64_t> zero_bucket_bytes(const ModelConfig& m) {
  std::vector<uint64_t> out;
  for (uint64_t left = parameter_count(m); left > 0;) {
    const uint64_t elements = std::min(left, kZeroBucketElements);
    out.push_back(elements * dtype_size(m.dtype));
    left -= elements;
  }
  return out;
}

static Profile zero(const ModelConfig& m, int stage) {
  Profile p;
  const std::vector<uint64_t> buckets = zero_bucket_bytes(m);
  const uint64_t reductions = stage == 2 ? m.micro_batches : 1;
  for (uint64_t b : buckets) p.add(CollectiveKind::kReduceScatter, b, m.dtype, reductions, "gradient bucket");
  for (uint64_t b : buckets) p.add(CollectiveKind::kAllGather, b, m.dtype, 1, "updated parameter bucket");
  p.summary = m.name + " (" + billions(parameter_count(m)) + "), DeepSpeed ZeRO-" + std::to_string(stage) + ": " +
              std::to_string(buckets.size()) + " buckets of up to 5e8 " + std::string(dtype_name(m.dtype)) +
              " elements, reduce-scattered " + (stage == 2 ? "per micro-batch" : "once per step") +
              ", all-gathered once per step";
  return p;
}

static Profile hsdp(const ModelConfig& m) {
  Profile p = fsdp(m);
  const uint64_t esize = dtype_size(m.dtype);
  for (const auto& [block, elements] : fsdp_units(m)) {
    const uint64_t shard = (elements + m.shard_group - 1) / m.shard_group;  // FSDP pads the last shard
    p.add(CollectiveKind::kAllreduce, shard * esize, m.dtype, 1, block < 0 ? "root gradient shard" : "block gradient shard");
  }
  p.summary = m.name + " (" + billions(parameter_count(m)) + "), HSDP: FULL_SHARD within groups of " +
              std::to_string(m.shard_group) + " ranks, each unit's gradient shard all-reduced across the groups";
  return p;
}

static Profile expert_parallel(const ModelConfig& m) {
  if (!m.moe()) throw_invalid(m.name + " has no experts: ep needs a mixture-of-experts model (give experts and top_k)");
  Profile p;
  const uint64_t bytes = checked_mul(activation_bytes(m), m.top_k, "micro_batch x seq x hidden x bytes x top_k");
  const uint64_t count = checked_mul(4 * m.moe_layers(), m.micro_batches, "4 x MoE layers x micro_batches");
  p.add(CollectiveKind::kAllToAll, bytes, m.dtype, count, "token dispatch and combine");
  p.summary = m.name + " (" + billions(parameter_count(m)) + ", " + std::to_string(m.experts) + " experts, top " +
              std::to_string(m.top_k) + "), expert parallel: per MoE layer (" + std::to_string(m.moe_layers()) +
              ") and micro-batch, dispatch and combine forward and backward, micro-batch " + std::to_string(m.micro_batch) +
              " x seq " + std::to_string(m.seq) + " x top_k x hidden " + std::to_string(m.hidden);
  return p;
}

Profile derive_profile(const ModelConfig& m, ParallelMode mode) {
  Profile p;
  switch (mode) {
    case ParallelMode::kDdp: p = ddp(m); break;
    case ParallelMode::kTensorParallel: p = tensor_parallel(m); break;
    case ParallelMode::kFsdp: p = fsdp(m); break;
    case ParallelMode::kPipeline: p = pipeline(m); break;
    case ParallelMode::kZero1: p = zero(m, 1); break;
    case ParallelMode::kZero2: p = zero(m, 2); break;
    case ParallelMode::kHsdp: p = hsdp(m); break;
    case ParallelMode::kExpertParallel: p = expert_parallel(m); break;
  }
  p.name = m.name + ":" + std::string(mode_name(mode));
  return p;
}

ModelConfig load_model(const std::string& name) {
  if (const ModelConfig* m = find_preset(name)) return *m;
  if (name.size() > 5 && name.ends_with(".json"))
    return model_from_json(read_regular_file(name, kMaxModelFileBytes, "--profile"), name);
  std::string names;
  for (const auto& m : model_presets()) names += (names.empty() ? "" : ", ") + m.name;
  throw_invalid("unknown profile '" + name + "': use a preset (" + names + ") or a model .json file; see --list-profiles");
}

Profile resolve_profile(std::string_view spec) {
  std::string s(spec);
  auto colon = s.rfind(':');
  ParallelMode mode = ParallelMode::kDdp;
  if (colon != std::string::npos) {
    mode = parse_mode(s.substr(colon + 1));
    s.resize(colon);
  }
  ModelConfig m = load_model(s);
  try {
    return derive_profile(m, mode);
  } catch (const Error& e) {  // a size that overflows: name the file it came from
    throw_invalid(s + ": " + e.message());
  }
}

}  // namespace ccb
