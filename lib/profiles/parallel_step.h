// A 3D-parallel job (Megatron-LM's tensor, pipeline and data parallelism) as ccbench
// runs it with --parallel tp=T,pp=P,dp=D.
//
// The ranks: Megatron's order, tensor-parallel rank fastest, then data-parallel, then
// pipeline: rank = tp_rank + T x (dp_rank + D x pp_rank). So a tensor-parallel group is
// T consecutive ranks (a node's GPUs), and a pipeline group strides by T x D.
//
// The step each group carries, for the pipeline stage the rank is on:
//  - tp: the stage's blocks' activation AllReduces (4 per block and micro-batch; T5's
//    decoder blocks 6), micro_batch x seq x hidden each, as the `tp` profile;
//  - pp: 1F1B's stage-boundary send/recvs, as the `pp` profile (nccl-tests' sendrecv,
//    stage s to s+1, so the last stage's send to the first is one pair more than 1F1B);
//  - dp: the gradient AllReduce of the rank's shard in DDP's buckets. The shard is the
//    stage's blocks, plus the embeddings on the first stage and the final norm and head
//    on the last, each tensor split T ways except the norms, which Megatron copies.
// A group of one rank carries nothing.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "profiles/model_config.h"
#include "profiles/profile.h"

namespace ccb {

enum class GroupKind { kTensor, kPipeline, kData };
inline constexpr std::array<GroupKind, 3> kGroupKinds{GroupKind::kTensor, GroupKind::kPipeline, GroupKind::kData};
std::string_view group_kind_name(GroupKind k);  // "tp", "pp", "dp"

struct ParallelLayout {
  int tp = 1, pp = 1, dp = 1;
  int size(GroupKind k) const;
  long long world() const { return static_cast<long long>(tp) * pp * dp; }
  std::string describe() const;  // "tp=2,pp=2,dp=2"
};

// "tp=2,pp=2,dp=2"; a missing tp or pp is 1, a missing dp is what the world leaves.
// Throws kInvalidArgument naming --parallel and the fix, also when the product of the
// three is not `world`.
ParallelLayout parse_parallel(std::string_view spec, int world);

struct RankCoordinates {
  int tp = 0, pp = 0, dp = 0;
};
RankCoordinates coordinates(const ParallelLayout& l, int rank);
// The ranks of `rank`'s group of kind `k`, in ascending order (a group's local ranks).
std::vector<int> group_members(const ParallelLayout& l, GroupKind k, int rank);

struct GroupStep {
  GroupKind kind;
  Profile profile;  // what the group runs per step; no entries for a group of one
};

// The step of every group `rank` belongs to. Throws kInvalidArgument when pp does not
// divide the model's blocks (Megatron's rule too), or a size overflows.
std::vector<GroupStep> derive_group_steps(const ModelConfig& m, const ParallelLayout& l, int rank);

}  // namespace ccb
