#include "profiles/parallel_step.h"

#include <charconv>
#include <sstream>

#include "core/checked.h"
#include "core/error.h"
#include "profiles/parameter_layout.h"

namespace ccb {

static constexpr int kMaxGroupSize = 1 << 20;

std::string_view group_kind_name(GroupKind k) {
  switch (k) {
    case GroupKind::kTensor: return "tp";
    case GroupKind::kPipeline: return "pp";
    case GroupKind::kData: return "dp";
  }
  return "?";
}

int ParallelLayout::size(GroupKind k) const {
  switch (k) {
    case GroupKind::kTensor: return tp;
    case GroupKind::kPipeline: return pp;
    case GroupKind::kData: return dp;
  }
  return 1;
}

std::string ParallelLayout::describe() const {
  return "tp=" + std::to_string(tp) + ",pp=" + std::to_string(pp) + ",dp=" + std::to_string(dp);
}

[[noreturn]] static void bad_spec(std::string_view spec, const std::string& why) {
  throw_invalid("--parallel '" + std::string(spec) + "': " + why + " (e.g. --parallel tp=2,pp=2,dp=2)");
}

ParallelLayout parse_parallel(std::string_view spec, int world) {
  ParallelLayout l;
  bool seen[3] = {false, false, false};
  std::stringstream in{std::string(spec)};
  for (std::string item; std::getline(in, item, ',');) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    int* field = key == "tp" ? &l.tp : key == "pp" ? &l.pp : key == "dp" ? &l.dp : nullptr;
    if (!field || eq == std::string::npos) bad_spec(spec, "each part is tp=N, pp=N or dp=N");
    const int index = field == &l.tp ? 0 : field == &l.pp ? 1 : 2;
    if (seen[index]) bad_spec(spec, key + " is given twice");
    seen[index] = true;
    const char* first = item.data() + eq + 1;
    const char* last = item.data() + item.size();
    auto [end, ec] = std::from_chars(first, last, *field);
    if (ec != std::errc() || end != last || first == last || *field < 1 || *field > kMaxGroupSize)
      bad_spec(spec, key + " must be a whole number from 1 to " + std::to_string(kMaxGroupSize));
  }
  if (!seen[0] && !seen[1] && !seen[2]) bad_spec(spec, "name at least one of tp, pp and dp");
  if (!seen[2] && world % (static_cast<long long>(l.tp) * l.pp) == 0) l.dp = static_cast<int>(world / (l.tp * l.pp));
  if (l.world() != world)
    throw_invalid("--parallel " + l.describe() + " makes " + std::to_string(l.world()) + " ranks but the job has " +
                  std::to_string(world) + ": make tp x pp x dp equal the number of ranks (--np)");
  return l;
}

RankCoordinates coordinates(const ParallelLayout& l, int rank) {
  return RankCoordinates{rank % l.tp, rank / (l.tp * l.dp), (rank / l.tp) % l.dp};
}

static int rank_at(const ParallelLayout& l, RankCoordinates c) { return c.tp + l.tp * (c.dp + l.dp * c.pp); }

std::vector<int> group_members(const ParallelLayout& l, GroupKind k, int rank) {
  std::vector<int> out;
  RankCoordinates c = coordinates(l, rank);
  int& moving = k == GroupKind::kTensor ? c.tp : k == GroupKind::kPipeline ? c.pp : c.dp;
  // Ascending: a rank grows with each of its coordinates.
  for (moving = 0; moving < l.size(k); ++moving) out.push_back(rank_at(l, c));
  return out;
}

namespace {

// Which blocks a pipeline stage holds, and what lies on it.
struct Stage {
  uint64_t first_block = 0, end_block = 0;
  bool holds(uint64_t block) const { return block >= first_block && block < end_block; }
};

Stage stage_of(const ModelConfig& m, const ParallelLayout& l, int pp_rank) {
  const uint64_t blocks = m.layers + m.decoder_layers;
  if (blocks % static_cast<uint64_t>(l.pp) != 0)
    throw_invalid("--parallel pp=" + std::to_string(l.pp) + " does not divide " + m.name + "'s " + std::to_string(blocks) +
                  " transformer blocks: Megatron gives every stage as many; use a pp that divides " +
                  std::to_string(blocks));
  const uint64_t per_stage = blocks / static_cast<uint64_t>(l.pp);
  return Stage{per_stage * static_cast<uint64_t>(pp_rank), per_stage * static_cast<uint64_t>(pp_rank + 1)};
}

// The stage's tensors, each as one tensor-parallel rank holds it. A tensor outside the
// blocks lies with the block before it (the head and final norm on the last stage),
// or on the first stage when no block comes before it (the embeddings).
std::vector<ParameterTensor> shard_tensors(const ModelConfig& m, const ParallelLayout& l, const Stage& s) {
  std::vector<ParameterTensor> out;
  uint64_t last_block = 0;
  for (ParameterTensor t : parameter_tensors(m)) {
    if (t.block >= 0) last_block = static_cast<uint64_t>(t.block);
    if (!s.holds(last_block)) continue;
    if (!t.replicated) t.elements = (t.elements + static_cast<uint64_t>(l.tp) - 1) / static_cast<uint64_t>(l.tp);
    out.push_back(std::move(t));
  }
  return out;
}

Profile tensor_group(const ModelConfig& m, const Stage& s) {
  uint64_t per_micro_batch = 0;
  for (uint64_t b = s.first_block; b < s.end_block; ++b) per_micro_batch += b < m.layers ? 4 : 6;  // T5's decoder: 6
  Profile p;
  p.add(CollectiveKind::kAllreduce, activation_bytes(m), m.dtype,
        checked_mul(per_micro_batch, m.micro_batches, "AllReduces per micro-batch x micro_batches"), "layer activations");
  p.summary = std::to_string(per_micro_batch) + " activation AllReduces per micro-batch (blocks " +
              std::to_string(s.first_block) + ".." + std::to_string(s.end_block - 1) + ") x " +
              std::to_string(m.micro_batches) + " micro-batches";
  return p;
}

Profile pipeline_group(const ModelConfig& m) {
  Profile p = derive_profile(m, ParallelMode::kPipeline);
  p.summary = "1F1B: each micro-batch's activations forward and their gradients back, x " +
              std::to_string(m.micro_batches) + " micro-batches";
  return p;
}

Profile data_group(const ModelConfig& m, const ParallelLayout& l, const Stage& s) {
  Profile p;
  const std::vector<ParameterTensor> shard = shard_tensors(m, l, s);
  const std::vector<uint64_t> buckets = ddp_bucket_bytes(shard, m.grad_dtype);
  uint64_t elements = 0;
  for (const auto& t : shard) elements = checked_add(elements, t.elements, "the shard's parameters");
  for (uint64_t b : buckets) p.add(CollectiveKind::kAllreduce, b, m.grad_dtype, 1, "gradient bucket");
  p.summary = "the gradients of this rank's " + std::to_string(elements) + " parameters in " +
              std::to_string(buckets.size()) + " DDP buckets of " + std::string(dtype_name(m.grad_dtype));
  return p;
}

}  // namespace

std::vector<GroupStep> derive_group_steps(const ModelConfig& m, const ParallelLayout& l, int rank) {
  const RankCoordinates c = coordinates(l, rank);
  const Stage stage = stage_of(m, l, c.pp);
  std::vector<GroupStep> out;
  for (GroupKind k : kGroupKinds) {
    GroupStep g{k, {}};
    if (l.size(k) > 1) {
      g.profile = k == GroupKind::kTensor ? tensor_group(m, stage)
                  : k == GroupKind::kPipeline ? pipeline_group(m)
                                              : data_group(m, l, stage);
    }
    g.profile.name = m.name + ":" + std::string(group_kind_name(k)) + " stage " + std::to_string(c.pp);
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace ccb
