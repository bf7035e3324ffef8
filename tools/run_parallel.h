// `ccbench run --profile MODEL --parallel tp=T,pp=P,dp=D`: the model's 3D-parallel
// step, each group on its own connections, one kind at a time and all at once
// (runner/parallel_runner.h).
#pragma once
#include <cstdint>

#include "job/rank_job.h"
#include "profiles/parallel_step.h"
#include "run_command.h"
#include "runner/result_record.h"

namespace ccb::cli {

// The most calls one group's step may replay (a 70B model's tp step is a few thousand).
inline constexpr uint64_t kMaxGroupStepCalls = 1'000'000;

struct ParallelPlan {
  ModelConfig model;
  ParallelLayout layout;
};
// Throws kInvalidArgument, naming the flag and the fix, for a bad --parallel, a
// --profile that is not one plain model, or a step a rank could not replay.
ParallelPlan parallel_plan(const RunCommand& c, int world);
// What one rank's groups hold at once: each group's largest padded call, summed.
uint64_t parallel_buffer_bytes(const ParallelPlan& plan);

// Every rank calls this; rank 0 prints and records (`record` is null elsewhere).
// Returns the wrong elements.
uint64_t run_parallel(const RunCommand& cmd, RankContext& rank, ResultRecord* record);

}  // namespace ccb::cli
