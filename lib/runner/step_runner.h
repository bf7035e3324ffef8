// A training step's communication: a profile measured entry by entry, or a trace
// replayed call by call in its own order.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "profiles/profile.h"
#include "profiles/trace.h"
#include "runner/collective_runner.h"

namespace ccb {

struct ProfileRow {
  ProfileEntry entry;
  RunOptions options;  // the collective, type and algorithm this entry ran with
  SizeResult result;   // result.bytes may exceed entry.bytes: padded to ranks x type size
};

// ReduceScatter and AllGather buffers are padded to a multiple of ranks x type size,
// as FSDP pads its flat parameters.
uint64_t padded_bytes(CollectiveKind op, DataType t, int ranks, uint64_t bytes);

// `base`'s settings for one collective and type: its algorithm where the collective has
// it (a step's tree runs AllReduce; ReduceScatter and AllGather run their default).
RunOptions for_collective(const RunOptions& base, CollectiveKind op, DataType t);

// Measures every entry with `base`'s settings (tree applies to AllReduce; the others
// run ring) and returns the step's communication time in us: sum of count x time.
// One runner (and one set of buffers) is alive at a time. Every rank calls this.
double run_profile(Communicator& comm, Bootstrap& boot, const Profile& p, const RunOptions& base,
                   const std::function<void(const ProfileRow&)>& on_row);

// One step's calls replayed in order on one communicator, one runner (and one set of
// buffers) per collective and type. Every rank of the communicator makes the same calls.
class StepReplay {
 public:
  StepReplay(Communicator& comm, Bootstrap& boot, std::vector<TraceCall> calls, RunOptions base);
  ~StepReplay();
  uint64_t prepare();     // every call once, checked: this rank's wrong elements
  double pass_seconds();  // every call once, timed
  size_t calls() const { return calls_.size(); }
  uint64_t bytes() const;

 private:
  CollectiveRunner& runner_for(const TraceCall& c);
  uint64_t bytes_of(const TraceCall& c) const;

  Communicator& comm_;
  Bootstrap& boot_;
  std::vector<TraceCall> calls_;
  RunOptions base_;
  std::map<std::pair<CollectiveKind, DataType>, std::unique_ptr<CollectiveRunner>> runners_;
};

// A profile's entries as the calls of one step, each entry `count` times in a row.
// Throws kInvalidArgument when that is more than `max_calls`.
std::vector<TraceCall> step_calls(const Profile& p, uint64_t max_calls);

struct TraceResult {
  size_t calls = 0;
  int passes = 0;            // timed passes, after one checked warm-up pass
  uint64_t wrong = 0;        // from the checked pass
  LatencyStats total_us;     // per pass, the slowest rank's total
};

TraceResult replay_trace(Communicator& comm, Bootstrap& boot, const std::vector<TraceCall>& calls,
                         const RunOptions& base, int passes);

}  // namespace ccb
