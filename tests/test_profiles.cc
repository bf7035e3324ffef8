// LLM profiles against figures computed by hand from the published configurations.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "profiles/parameter_layout.h"
#include "profiles/profile.h"

using namespace ccb;

namespace {

const ModelConfig& preset(const char* name) {
  const ModelConfig* m = find_preset(name);
  REQUIRE(m != nullptr);
  return *m;
}

ProfileEntry only_entry(const Profile& p) {
  REQUIRE(p.entries.size() == 1);
  return p.entries.front();
}

}  // namespace

TEST_CASE("parameter counts match the published models exactly", "[profiles]") {
  CHECK(parameter_count(preset("llama2-7b")) == 6'738'415'616ull);
  CHECK(parameter_count(preset("llama2-13b")) == 13'015'864'320ull);
  CHECK(parameter_count(preset("llama2-70b")) == 68'976'648'192ull);  // GQA: 8 KV heads
  CHECK(parameter_count(preset("gpt2-xl")) == 1'557'611'200ull);
  CHECK(parameter_count(preset("bert-large")) == 335'141'888ull);      // BertModel with pooler
  CHECK(parameter_count(preset("t5-11b")) == 11'307'321'344ull);
  CHECK(parameter_count(preset("gpt3-175b")) == 174'604'259'328ull);
  // Mixture of experts: Mixtral 8x7B's 46.7 B, and DeepSeek-V3's 671 B without its
  // multi-token-prediction module (latent attention, 3 dense blocks, 256 + 1 experts).
  CHECK(parameter_count(preset("mixtral-8x7b")) == 46'702'792'704ull);
  CHECK(parameter_count(preset("deepseek-v3")) == 671'026'419'200ull);
}

TEST_CASE("expert parallelism: four all-to-alls of micro_batch x seq x top_k x hidden per MoE layer", "[profiles]") {
  // Mixtral: 1 x 32768 x 2 x 4096 x 2 B = 512 MiB, 32 MoE layers.
  const ProfileEntry mix = only_entry(resolve_profile("mixtral-8x7b:ep"));
  CHECK(mix.op == CollectiveKind::kAllToAll);
  CHECK(mix.bytes == 512ull << 20);
  CHECK(mix.count == 4 * 32);
  // DeepSeek-V3: 1 x 4096 x 8 x 7168 x 2 B = 448 MiB, 61 - 3 dense = 58 MoE layers.
  const ProfileEntry ds = only_entry(resolve_profile("deepseek-v3:ep"));
  CHECK(ds.bytes == 448ull << 20);
  CHECK(ds.count == 4 * 58);
  ModelConfig m = model_from_json(R"({"name": "moe", "hidden": 8, "layers": 3, "ffn": 16, "heads": 2, "vocab": 10,
                                      "seq": 4, "micro_batches": 2, "experts": 4, "top_k": 2, "dense_layers": 1})", "moe.json");
  const ProfileEntry e = only_entry(derive_profile(m, ParallelMode::kExpertParallel));
  CHECK(e.bytes == 4 * 8 * 2 * 2);
  CHECK(e.count == 4 * 2 * 2);
  // Two MoE blocks of a router (8 x 4) and 4 experts of 3 x 8 x 16; one dense block.
  CHECK(parameter_count(m) == 80 + (656 - 3 * 8 * 16 + 0) * 3 + 3 * 8 * 16 + 2 * (32 + 4 * 3 * 8 * 16) + 8 + 80);
  CHECK_FALSE(mode_applies(preset("llama2-7b"), ParallelMode::kExpertParallel));
  CHECK_THROWS_WITH(resolve_profile("llama2-7b:ep"), Catch::Contains("llama2-7b has no experts: ep needs a mixture-of-experts model"));
}

TEST_CASE("Megatron TP: micro_batch x seq x hidden x bytes, 4 AllReduces per layer", "[profiles]") {
  // Llama-2 70B, micro-batch 1, bf16: 1 x 4096 x 8192 x 2 B = 64 MiB, 80 layers.
  const ProfileEntry l70 = only_entry(resolve_profile("llama2-70b:tp"));
  CHECK(l70.bytes == 64ull << 20);
  CHECK(l70.count == 4 * 80);
  CHECK(l70.op == CollectiveKind::kAllreduce);
  CHECK(l70.dtype == DataType::kBF16);
  const ProfileEntry l7 = only_entry(resolve_profile("llama2-7b:megatron"));
  CHECK(l7.bytes == 1ull * 4096 * 4096 * 2);
  CHECK(l7.count == 128);
  const ProfileEntry gpt2 = only_entry(resolve_profile("gpt2-xl:tp"));
  CHECK(gpt2.bytes == 1ull * 1024 * 1600 * 2);
  CHECK(gpt2.count == 4 * 48);
  // T5's decoder layers add cross-attention: 6 each.
  CHECK(only_entry(resolve_profile("t5-11b:tp")).count == 24 * 4 + 24 * 6);
}

TEST_CASE("DDP buckets: 1 MiB first bucket, 25 MiB cap, tensors never split, reduced in reverse", "[profiles]") {
  auto buckets = ddp_bucket_bytes(preset("llama2-7b"));
  REQUIRE(buckets.size() == 226);
  // Reduced first: the LM head with the final and last layer's norms (fp32 gradients).
  CHECK(buckets.front() == 32000ull * 4096 * 4 + 3 * 4096 * 4);
  // Reduced last: the embedding alone, an oversized "1 MiB" bucket.
  CHECK(buckets.back() == 32000ull * 4096 * 4);
  CHECK(std::count(buckets.begin(), buckets.end(), 11008ull * 4096 * 4) == 96);  // MLP weights
  Profile p = resolve_profile("llama2-7b");  // ddp is the default mode
  CHECK(p.name == "llama2-7b:ddp");
  CHECK(p.calls_per_step() == 226);
  CHECK(p.bytes_per_step() == parameter_count(preset("llama2-7b")) * 4);
}

TEST_CASE("DDP bucketing of a small custom model, by hand", "[profiles]") {
  ModelConfig m = model_from_json(
      R"({"name": "tiny", "architecture": "llama", "hidden": 8, "layers": 2, "ffn": 16, "heads": 2,
          "vocab": 10, "seq": 4})", "tiny.json");
  CHECK(parameter_count(m) == 80 + 2 * 656 + 8 + 80);
  auto buckets = ddp_bucket_bytes(m, DdpBucketing{1000, 100});
  CHECK(buckets == std::vector<uint64_t>{416, 1024, 1024, 1088, 1024, 1024, 320});
}

TEST_CASE("FSDP: each block all-gathered twice and reduce-scattered once; the root once each", "[profiles]") {
  Profile p = resolve_profile("llama2-7b:fsdp");
  const uint64_t block = 202'383'360ull * 2, root = (2 * 131'072'000ull + 4096) * 2;
  REQUIRE(p.entries.size() == 4);
  CHECK((p.entries[0].op == CollectiveKind::kAllGather && p.entries[0].bytes == root && p.entries[0].count == 1));
  CHECK((p.entries[1].op == CollectiveKind::kAllGather && p.entries[1].bytes == block && p.entries[1].count == 64));
  CHECK((p.entries[2].op == CollectiveKind::kReduceScatter && p.entries[2].bytes == block && p.entries[2].count == 32));
  CHECK((p.entries[3].op == CollectiveKind::kReduceScatter && p.entries[3].bytes == root && p.entries[3].count == 1));
  // Every parameter is gathered and reduced: per step 2x (blocks) + 1x (root) gathers.
  CHECK(p.bytes_per_step() == 3 * 32 * block + 2 * root);
}

TEST_CASE("1F1B pipeline: micro_batch x seq x hidden each way, per micro-batch", "[profiles]") {
  // Llama-2 7B, micro-batch 1, bf16: 1 x 4096 x 4096 x 2 B = 32 MiB, forward and back.
  const ProfileEntry l7 = only_entry(resolve_profile("llama2-7b:pp"));
  CHECK(l7.op == CollectiveKind::kSendRecv);
  CHECK(l7.bytes == 32ull << 20);
  CHECK(l7.count == 2);
  ModelConfig m = model_from_json(R"({"name": "mb", "hidden": 8, "layers": 2, "heads": 2, "vocab": 10, "seq": 4,
                                      "micro_batch": 3, "micro_batches": 5})", "mb.json");
  const ProfileEntry e = only_entry(derive_profile(m, ParallelMode::kPipeline));
  CHECK(e.bytes == 3 * 4 * 8 * 2);
  CHECK(e.count == 2 * 5);
}

TEST_CASE("ZeRO-1 and ZeRO-2: gradients reduce-scattered and parameters gathered in 5e8-element buckets", "[profiles]") {
  // Llama-2 7B: 6,738,415,616 parameters = 13 full buckets + 238,415,616, in bf16.
  Profile z1 = resolve_profile("llama2-7b:zero1");
  REQUIRE(z1.entries.size() == 4);
  CHECK((z1.entries[0].op == CollectiveKind::kReduceScatter && z1.entries[0].bytes == 1'000'000'000ull && z1.entries[0].count == 13));
  CHECK((z1.entries[1].op == CollectiveKind::kReduceScatter && z1.entries[1].bytes == 476'831'232ull && z1.entries[1].count == 1));
  CHECK((z1.entries[2].op == CollectiveKind::kAllGather && z1.entries[2].bytes == 1'000'000'000ull && z1.entries[2].count == 13));
  CHECK((z1.entries[3].op == CollectiveKind::kAllGather && z1.entries[3].bytes == 476'831'232ull && z1.entries[3].count == 1));
  CHECK(z1.bytes_per_step() == 2 * parameter_count(preset("llama2-7b")) * 2);
  // Stage 2 keeps only its gradient shard, so it reduce-scatters every micro-batch.
  ModelConfig m = model_from_json(R"({"name": "acc", "hidden": 8, "layers": 2, "ffn": 16, "heads": 2, "vocab": 10,
                                      "seq": 4, "micro_batches": 4})", "acc.json");
  Profile z2 = derive_profile(m, ParallelMode::kZero2), z1m = derive_profile(m, ParallelMode::kZero1);
  REQUIRE(z2.entries.size() == 2);
  CHECK((z2.entries[0].op == CollectiveKind::kReduceScatter && z2.entries[0].bytes == 1480 * 2 && z2.entries[0].count == 4));
  CHECK((z2.entries[1].op == CollectiveKind::kAllGather && z2.entries[1].bytes == 1480 * 2 && z2.entries[1].count == 1));
  CHECK(z1m.entries[0].count == 1);
}

TEST_CASE("HSDP: FULL_SHARD within the group, each unit's gradient shard all-reduced across groups", "[profiles]") {
  // The tiny model's units: root 80 + 8 + 80 = 168 elements, two blocks of 656.
  ModelConfig m = model_from_json(R"({"name": "tiny", "hidden": 8, "layers": 2, "ffn": 16, "heads": 2, "vocab": 10,
                                      "seq": 4, "shard_group": 3})", "tiny.json");
  Profile p = derive_profile(m, ParallelMode::kHsdp);
  REQUIRE(p.entries.size() == 6);  // fsdp's four, then the AllReduces
  CHECK((p.entries[4].op == CollectiveKind::kAllreduce && p.entries[4].bytes == 56 * 2 && p.entries[4].count == 1));
  CHECK((p.entries[5].op == CollectiveKind::kAllreduce && p.entries[5].bytes == 219 * 2 && p.entries[5].count == 2));
  Profile f = derive_profile(m, ParallelMode::kFsdp);
  CHECK(p.bytes_per_step() == f.bytes_per_step() + 56 * 2 + 2 * 219 * 2);
}

TEST_CASE("every preset derives every mode", "[profiles]") {
  for (const ModelConfig& m : model_presets())
    for (auto mode : all_modes()) {
      if (!mode_applies(m, mode)) continue;
      Profile p = derive_profile(m, mode);
      INFO(p.name);
      CHECK_FALSE(p.entries.empty());
      CHECK_FALSE(p.summary.empty());
      for (const auto& e : p.entries) CHECK((e.bytes > 0 && e.count > 0));
    }
}

TEST_CASE("bad profiles and model files name the problem", "[profiles]") {
  CHECK_THROWS_WITH(resolve_profile("llama3-400b:ddp"), Catch::Contains("unknown profile 'llama3-400b'") &&
                                                            Catch::Contains("llama2-7b"));
  CHECK_THROWS_WITH(resolve_profile("llama2-7b:moe"), Catch::Contains("use ddp, tp, fsdp, pp, zero1, zero2, hsdp, ep"));
  const char* dense = R"("hidden": 8, "layers": 2, "heads": 2, "vocab": 10, "seq": 4)";
  CHECK_THROWS_WITH(model_from_json(std::string("{") + dense + R"(, "experts": 8})", "m.json"),
                    Catch::Contains("m.json: 'experts' needs 'top_k'"));
  CHECK_THROWS_WITH(model_from_json(std::string("{") + dense + R"(, "top_k": 2})", "m.json"),
                    Catch::Contains("'top_k' without 'experts'"));
  CHECK_THROWS_WITH(model_from_json(std::string("{") + dense + R"(, "experts": 2, "top_k": 3})", "m.json"),
                    Catch::Contains("'top_k' is above 'experts'"));
  CHECK_THROWS_WITH(model_from_json(std::string("{") + dense + R"(, "experts": 2, "top_k": 1, "dense_layers": 2})", "m.json"),
                    Catch::Contains("'dense_layers' must be below 'layers'"));
  CHECK_THROWS_WITH(model_from_json(R"({"hidden": 8, "layers": 60000, "heads": 2, "vocab": 10, "seq": 4, "experts": 60000, "top_k": 1})", "m.json"),
                    Catch::Contains("experts x MoE layers is 3600000000, above the limit"));
  CHECK_THROWS_WITH(model_from_json(std::string("{") + dense + R"(, "architecture": "deepseek"})", "m.json"),
                    Catch::Contains("'kv_lora_rank' must be a positive integer"));
  CHECK_THROWS_WITH(model_from_json(R"({"hidden": 8, "layers": 2, "heads": 2, "vocab": 10, "seq": 4, "shard_group": 0})", "m.json"),
                    Catch::Contains("'shard_group' must be a positive integer"));
  CHECK_THROWS_WITH(resolve_profile("/nonexistent/model.json:tp"), Catch::Contains("cannot read --profile '/nonexistent/model.json'"));
  CHECK_THROWS_WITH(model_from_json("{\"hidden\": 8", "m.json"), Catch::Contains("m.json is not valid JSON"));
  CHECK_THROWS_WITH(model_from_json("[1]", "m.json"), Catch::Contains("a model is a JSON object"));
  CHECK_THROWS_WITH(model_from_json(R"({"hidden": 1E400})", "m.json"), Catch::Contains("m.json is not valid JSON"));
  CHECK_THROWS_WITH(model_from_json(R"({"name": 7})", "m.json"), Catch::Contains("are strings"));
  CHECK_THROWS_WITH(model_from_json(R"({"hidden": 8, "layers": 2, "heads": 2, "vocab": 10})", "m.json"),
                    Catch::Contains("'seq' must be a positive integer"));
  CHECK_THROWS_WITH(model_from_json(R"({"hidden": -8})", "m.json"), Catch::Contains("'hidden' must be a positive integer"));
  CHECK_THROWS_WITH(model_from_json(R"({"hiden": 8})", "m.json"), Catch::Contains("unknown field 'hiden'"));
  CHECK_THROWS_WITH(model_from_json(R"({"architecture": "rwkv"})", "m.json"), Catch::Contains("unknown architecture"));
  CHECK_THROWS_WITH(model_from_json(R"({"hidden": 10, "layers": 1, "heads": 3, "vocab": 5, "seq": 2})", "m.json"),
                    Catch::Contains("give head_dim"));
}
