#include "run_parallel.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "core/checked.h"
#include "core/error.h"
#include "core/units.h"
#include "job/rank_groups.h"
#include "runner/step_runner.h"

namespace ccb::cli {

ParallelPlan parallel_plan(const RunCommand& c, int world) {
  if (c.profiles.size() != 1 || c.profiles.front().find(':') != std::string::npos)
    throw_invalid("--parallel derives every group's step from one model: give one --profile MODEL, without a ':mode'");
  ParallelPlan plan{load_model(c.profiles.front()), parse_parallel(c.parallel, world)};
  for (int r = 0; r < world; r += plan.layout.tp * plan.layout.dp)  // one rank per stage: the steps differ by stage only
    for (const GroupStep& g : derive_group_steps(plan.model, plan.layout, r)) step_calls(g.profile, kMaxGroupStepCalls);
  return plan;
}

uint64_t parallel_buffer_bytes(const ParallelPlan& plan) {
  uint64_t most = 0;
  for (int r = 0; r < plan.layout.world(); r += plan.layout.tp * plan.layout.dp) {
    uint64_t sum = 0;
    for (const GroupStep& g : derive_group_steps(plan.model, plan.layout, r)) {
      uint64_t largest = 0;
      for (const ProfileEntry& e : g.profile.entries)
        largest = std::max(largest, padded_bytes(e.op, e.dtype, plan.layout.size(g.kind), e.bytes));
      sum = checked_add(sum, largest, "the buffers of a rank's groups");
    }
    most = std::max(most, sum);
  }
  return most;
}

static std::string ms(double us) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", us / 1e3);
  return b;
}

// What each kind of group ran on: the same for every group of a kind (rank_groups.h).
static std::string over_of(const std::vector<std::unique_ptr<RankGroup>>& groups, GroupKind kind) {
  for (const auto& g : groups)
    if (g->kind() == kind) return g->over();
  return "";
}

static void print_result(const ParallelPlan& plan, const std::vector<std::unique_ptr<RankGroup>>& groups,
                         const std::string& algo, int passes, const ParallelStepResult& r) {
  std::ostringstream out;
  out << "# parallel " << plan.model.name << " " << plan.layout.describe() << " (" << plan.layout.world()
      << " ranks), algo=" << algo << ", " << passes << " timed passes after a checked one; times are per step, p50\n"
      << "# group  size  groups  calls/step  bytes/step  alone_ms  together_ms  slowdown  over\n";
  for (const GroupTiming& g : r.groups) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-5s %5d %7lld %11zu %11s %9s %12s %8.2fx  %s\n", std::string(group_kind_name(g.kind)).c_str(),
                  g.size, plan.layout.world() / g.size, g.calls, short_bytes(g.bytes).c_str(), ms(g.alone_us.p50).c_str(),
                  ms(g.together_us.p50).c_str(), g.alone_us.p50 > 0 ? g.together_us.p50 / g.alone_us.p50 : 0.0,
                  over_of(groups, g.kind).c_str());
    out << line;
  }
  const double together = r.together_step_us.p50;
  out << "# step: one kind at a time " << ms(r.alone_step_us) << " ms, all at once " << ms(together) << " ms ("
      << (r.alone_step_us > 0 ? together / r.alone_step_us : 0.0) << "x), #wrong " << r.wrong << "\n";
  std::cout << out.str() << std::flush;
}

static void record_result(ResultRecord& record, const ParallelPlan& plan, const std::vector<GroupStep>& steps,
                          const std::vector<std::unique_ptr<RankGroup>>& groups, const std::string& algo,
                          const ParallelStepResult& r) {
  const std::string layout = plan.layout.describe();
  uint64_t calls = 0, bytes = 0;
  for (const GroupTiming& g : r.groups) {
    const std::string name = plan.model.name + ":" + std::string(group_kind_name(g.kind));
    std::string summary = layout + ", " + std::to_string(g.size) + " ranks a group, over " + over_of(groups, g.kind);
    for (const GroupStep& s : steps)
      if (s.kind == g.kind) summary += ": " + s.profile.summary + " (rank 0's stage)";
    record.add(StepSummary{"parallel_alone", name, summary, algo, g.alone_us.p50, g.calls, g.bytes, g.alone_us});
    record.add(StepSummary{"parallel_together", name, summary, algo, g.together_us.p50, g.calls, g.bytes, g.together_us});
    calls += g.calls;
    bytes += g.bytes;
  }
  const std::string step = plan.model.name + ":step";
  record.add(StepSummary{"parallel_alone", step, layout + ": the kinds of group one after another", algo,
                         r.alone_step_us, calls, bytes, {}});
  record.add(StepSummary{"parallel_together", step, layout + ": every group at once, barrier to the last", algo,
                         r.together_step_us.p50, calls, bytes, r.together_step_us});
}

uint64_t run_parallel(const RunCommand& cmd, RankContext& rank, ResultRecord* record) {
  const ParallelPlan plan = parallel_plan(cmd, rank.boot.size());
  const std::vector<GroupStep> steps = derive_group_steps(plan.model, plan.layout, parallel_position(rank.layout, rank.boot.rank()));
  TransportChoice shm = rank.settings.transport;
  shm.name = "shm";
  std::vector<std::unique_ptr<RankGroup>> groups = open_rank_groups(rank, plan.layout, cmd.intra == "shm" ? &shm : nullptr);
  uint64_t wrong = 0;
  for (Algorithm a : cmd.algorithm_list()) {
    const std::string algo(algorithm_name(a));
    for (int pass = 0; pass < cmd.repeat; ++pass) {
      std::vector<GroupLane> lanes;
      for (auto& g : groups)
        for (const GroupStep& s : steps)
          if (s.kind == g->kind()) lanes.push_back(g->lane(step_calls(s.profile, kMaxGroupStepCalls)));
      ParallelStepResult r = run_parallel_step(rank.boot, lanes, cmd.run_options(a), cmd.trace_passes);
      wrong += r.wrong;
      if (!record) continue;
      print_result(plan, groups, algo, cmd.trace_passes, r);
      record_result(*record, plan, steps, groups, algo, r);
    }
  }
  return wrong;  // every rank has the job's count
}

}  // namespace ccb::cli
