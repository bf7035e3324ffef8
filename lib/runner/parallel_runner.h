// --parallel's measurement. Every group of a 3D-parallel job replays its share of a
// training step (parallel_step.h), first one kind at a time ("alone": every tp group
// at once, then every pp group, then every dp group; a rank is in one group of each
// kind, so each rank runs one group at a time), then every kind at once ("together"),
// each group in its own thread on its own transport and connections, as a real job
// runs them. together / alone is the interference.
//
// Every pass starts at a barrier of the whole job, so the groups start together.
// The first pass of each group is checked and not timed.
#pragma once
#include <vector>

#include "algo/communicator.h"
#include "bootstrap/bootstrap.h"
#include "metrics/latency_stats.h"
#include "profiles/parallel_step.h"
#include "profiles/trace.h"
#include "runner/collective_runner.h"

namespace ccb {

// One of this rank's groups, ready to run.
struct GroupLane {
  GroupKind kind;
  std::vector<int> members;  // world ranks; local rank i is members[i]
  Communicator& comm;        // the group's own, over its own transport
  Bootstrap& boot;           // agreement within the group (CommunicatorBootstrap)
  std::vector<TraceCall> calls;  // the group's calls of one step, in order
};

struct GroupTiming {
  GroupKind kind;
  int size = 0;
  size_t calls = 0;       // per step, the most of any group of this kind
  uint64_t bytes = 0;     // per step, the most of any group of this kind (dp: stages differ)
  LatencyStats alone_us;  // per pass, the slowest rank's time for its group's calls
  LatencyStats together_us;
};

struct ParallelStepResult {
  std::vector<GroupTiming> groups;   // the lanes' kinds, in kGroupKinds order
  double alone_step_us = 0;          // the kinds' alone p50s, summed: one after another
  LatencyStats together_step_us;     // per pass, barrier to the slowest rank's last group
  uint64_t wrong = 0;                // elements, over every rank and group
};

// Every rank calls this with its lanes, one per kind of group larger than one, in
// kGroupKinds order; every rank gets the same result. When one group fails, every
// lane's transport on this rank is aborted, so its siblings stop waiting at once, and
// the first error is thrown with the world's rank numbers.
ParallelStepResult run_parallel_step(Bootstrap& world, std::vector<GroupLane>& lanes, const RunOptions& base,
                                     int passes);

}  // namespace ccb
