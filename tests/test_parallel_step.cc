// --parallel's split against the rank lists of Megatron-LM's initialize_model_parallel,
// and each group's step against figures worked out by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "core/error.h"
#include "profiles/parallel_step.h"
#include "profiles/parameter_layout.h"

using namespace ccb;

namespace {

using RankLists = std::vector<std::vector<int>>;

// Megatron-LM's loops (megatron/core/parallel_state.py, before context and expert
// parallelism), written out as they are there, not derived from ccbench's formula.
std::map<GroupKind, RankLists> megatron_groups(int world, int tp, int pp) {
  std::map<GroupKind, RankLists> g;
  const int tp_groups = world / tp, pp_groups = world / pp;
  for (int i = 0; i < pp; ++i) {
    const int start = i * pp_groups, end = (i + 1) * pp_groups;
    for (int j = 0; j < tp; ++j) {
      std::vector<int> ranks;
      for (int r = start + j; r < end; r += tp) ranks.push_back(r);
      g[GroupKind::kData].push_back(ranks);
    }
  }
  for (int i = 0; i < tp_groups; ++i) {
    std::vector<int> ranks;
    for (int r = i * tp; r < (i + 1) * tp; ++r) ranks.push_back(r);
    g[GroupKind::kTensor].push_back(ranks);
  }
  for (int i = 0; i < pp_groups; ++i) {
    std::vector<int> ranks;
    for (int r = i; r < world; r += pp_groups) ranks.push_back(r);
    g[GroupKind::kPipeline].push_back(ranks);
  }
  return g;
}

const std::vector<int>& list_holding(const RankLists& lists, int rank) {
  auto it = std::find_if(lists.begin(), lists.end(),
                         [rank](const auto& l) { return std::find(l.begin(), l.end(), rank) != l.end(); });
  REQUIRE(it != lists.end());
  return *it;
}

ModelConfig tiny(const std::string& extra = "") {
  return model_from_json(R"({"name": "tiny", "architecture": "llama", "hidden": 8, "layers": 4, "ffn": 16, "heads": 2,
                             "vocab": 10, "seq": 4, "micro_batch": 1, "micro_batches": 3)" + extra + "}",
                         "tiny.json");
}

const Profile& group(const std::vector<GroupStep>& steps, GroupKind k) {
  auto it = std::find_if(steps.begin(), steps.end(), [k](const GroupStep& s) { return s.kind == k; });
  REQUIRE(it != steps.end());
  return it->profile;
}

}  // namespace

TEST_CASE("the groups of --parallel are Megatron's rank lists", "[parallel]") {
  for (int tp : {1, 2, 3, 4})
    for (int pp : {1, 2, 3, 4})
      for (int dp : {1, 2, 3, 4}) {
        const ParallelLayout l{tp, pp, dp};
        const int world = static_cast<int>(l.world());
        const auto megatron = megatron_groups(world, tp, pp);
        for (int rank = 0; rank < world; ++rank)
          for (GroupKind k : kGroupKinds) {
            INFO(l.describe() << " rank " << rank << " " << group_kind_name(k));
            CHECK(group_members(l, k, rank) == list_holding(megatron.at(k), rank));
          }
      }
}

TEST_CASE("tp=2 pp=2 dp=2 splits 8 ranks as the issue's example does", "[parallel]") {
  const ParallelLayout l = parse_parallel("tp=2,pp=2,dp=2", 8);
  CHECK(group_members(l, GroupKind::kTensor, 5) == std::vector<int>{4, 5});
  CHECK(group_members(l, GroupKind::kData, 5) == std::vector<int>{5, 7});
  CHECK(group_members(l, GroupKind::kPipeline, 5) == std::vector<int>{1, 5});
  const RankCoordinates c = coordinates(l, 6);
  CHECK(c.tp == 0);
  CHECK(c.dp == 1);
  CHECK(c.pp == 1);
}

TEST_CASE("a --parallel spec is parsed and dp defaults to what the world leaves", "[parallel]") {
  CHECK(parse_parallel("tp=2", 8).describe() == "tp=2,pp=1,dp=4");
  CHECK(parse_parallel("pp=2,tp=4", 8).describe() == "tp=4,pp=2,dp=1");
  CHECK(parse_parallel("dp=8", 8).describe() == "tp=1,pp=1,dp=8");
  CHECK_THROWS_WITH(parse_parallel("tp=2,pp=2,dp=2", 4),
                    "--parallel tp=2,pp=2,dp=2 makes 8 ranks but the job has 4: make tp x pp x dp equal the number of ranks (--np)");
  CHECK_THROWS_WITH(parse_parallel("tp=3", 8), Catch::Contains("makes 3 ranks but the job has 8"));
  for (const char* bad : {"", "tp", "tp=", "tp=0", "tp=-1", "tp=2x", "ep=2", "tp=2,,dp=4", "tp=2,tp=2", "tp=99999999999"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_parallel(bad, 8), Catch::StartsWith("--parallel '") && Catch::Contains("e.g. --parallel tp=2,pp=2,dp=2"));
  }
}

TEST_CASE("each group's step worked out by hand for a 4-block model", "[parallel]") {
  // hidden 8: one micro-batch's activations are 1 x 4 x 8 bf16 = 64 B. A block has
  // q, k, v, o (4 x 64) and the MLP (3 x 8 x 16): 640 elements split by tp, and two
  // norms of 8 copied whole. The embeddings and the head are 10 x 8 each.
  const ParallelLayout l{2, 2, 2};
  const ModelConfig m = tiny();
  const auto first_stage = derive_group_steps(m, l, 0), last_stage = derive_group_steps(m, l, 7);
  for (const auto* steps : {&first_stage, &last_stage}) {
    const Profile& tp = group(*steps, GroupKind::kTensor);
    REQUIRE(tp.entries.size() == 1);
    CHECK(tp.entries[0].op == CollectiveKind::kAllreduce);
    CHECK(tp.entries[0].bytes == 64);
    CHECK(tp.entries[0].count == 2 * 4 * 3);  // 2 blocks a stage, 4 a block, 3 micro-batches
    const Profile& pp = group(*steps, GroupKind::kPipeline);
    REQUIRE(pp.entries.size() == 1);
    CHECK(pp.entries[0].op == CollectiveKind::kSendRecv);
    CHECK(pp.entries[0].bytes == 64);
    CHECK(pp.entries[0].count == 2 * 3);
  }
  // dp, fp32 gradients in one bucket (under DDP's first 1 MiB):
  // first stage: (80 + 2 x 640) / 2 + 2 x 16 = 712 elements; last: (2 x 640 + 80) / 2 + 2 x 16 + 8 = 720.
  const Profile& dp0 = group(first_stage, GroupKind::kData);
  REQUIRE(dp0.entries.size() == 1);
  CHECK(dp0.entries[0].bytes == 712 * 4);
  CHECK(dp0.entries[0].dtype == DataType::kF32);
  const Profile& dp1 = group(last_stage, GroupKind::kData);
  REQUIRE(dp1.entries.size() == 1);
  CHECK(dp1.entries[0].bytes == 720 * 4);
}

TEST_CASE("a group of one rank carries nothing", "[parallel]") {
  const auto steps = derive_group_steps(tiny(), ParallelLayout{4, 1, 1}, 3);
  CHECK(group(steps, GroupKind::kPipeline).entries.empty());
  CHECK(group(steps, GroupKind::kData).entries.empty());
  CHECK(group(steps, GroupKind::kTensor).calls_per_step() == 4 * 4 * 3);
}

TEST_CASE("the stages' dp shards add up to the whole model", "[parallel]") {
  const ModelConfig& m = *find_preset("llama2-7b");
  for (int pp : {1, 2, 4, 8, 32}) {
    uint64_t bytes = 0;
    const ParallelLayout l{1, pp, 2};
    for (int stage = 0; stage < pp; ++stage) bytes += group(derive_group_steps(m, l, stage * 2), GroupKind::kData).bytes_per_step();
    CHECK(bytes == parameter_count(m) * 4);
  }
}

TEST_CASE("T5's decoder blocks carry 6 tensor-parallel AllReduces each", "[parallel]") {
  const ModelConfig m = model_from_json(R"({"name": "t5", "architecture": "t5", "hidden": 8, "layers": 2, "decoder_layers": 2,
                                            "ffn": 16, "heads": 2, "vocab": 10, "seq": 4})", "t5.json");
  const ParallelLayout l{2, 2, 1};
  CHECK(group(derive_group_steps(m, l, 0), GroupKind::kTensor).calls_per_step() == 2 * 4);
  CHECK(group(derive_group_steps(m, l, 2), GroupKind::kTensor).calls_per_step() == 2 * 6);
}

TEST_CASE("pp must divide the blocks as Megatron requires", "[parallel]") {
  CHECK_THROWS_WITH(derive_group_steps(tiny(), ParallelLayout{1, 3, 1}, 0),
                    "--parallel pp=3 does not divide tiny's 4 transformer blocks: Megatron gives every stage as many; "
                    "use a pp that divides 4");
}
