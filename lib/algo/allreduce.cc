// AllReduce: every rank ends with the reduction of every rank's count elements. Its
// algorithms are RingAllreduce (ring_allreduce.cc), TreeAllreduce (tree_allreduce.cc),
// RecursiveDoublingAllreduce (recursive_doubling.cc), and two levels (hier_allreduce.cc).
#include <cstring>

#include "algo/collectives.h"
#include "algo/hier_allreduce.h"
#include "algo/recursive_doubling.h"
#include "algo/ring_allreduce.h"
#include "algo/tree_allreduce.h"

namespace ccb {
namespace {

void run(Communicator& comm, const ChunkPolicy& chunks, Algorithm a, const CollectiveArgs& args) {
  switch (a) {
    case Algorithm::kTree: return TreeAllreduce(comm, chunks).run(args);
    case Algorithm::kRecursiveDoubling: return RecursiveDoublingAllreduce(comm).run(args);
    case Algorithm::kHier: return hier_allreduce(comm, chunks, args);
    case Algorithm::kRing:
    case Algorithm::kDirect:  // not an AllReduce algorithm: refused by validate_algorithm
    case Algorithm::kAuto: break;  // resolved by the runner before it gets here
  }
  RingAllreduce(comm, chunks).run(args);
}

uint64_t check(const CollectiveArgs& a, const PatternSpec& p, int) { return count_wrong(a.recv.data(), a.count, 0, p); }

}  // namespace

const CollectiveDescriptor& allreduce_descriptor() {
  static const CollectiveDescriptor d{
      .kind = CollectiveKind::kAllreduce,
      .name = "allreduce",
      .trace_names = {"all_reduce"},
      .algorithms = {Algorithm::kRing, Algorithm::kTree, Algorithm::kRecursiveDoubling},
      .hierarchical = true,
      .small_messages = Algorithm::kRecursiveDoubling,
      .medium_messages = Algorithm::kTree,
      .reduces = true,
      .per_rank_parts = false,
      .busbw_factor = [](int n) { return n > 1 ? 2.0 * (n - 1) / n : 0.0; },
      .run = run,
      .place_in_place = place_one_buffer,
      .fill = fill_own_input,
      .check = check,
  };
  return d;
}

}  // namespace ccb
