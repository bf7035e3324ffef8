// Everything the rest of ccbench asks about a collective, in one descriptor per
// collective, behind one registry: the runner, the step runner, the benchmark driver,
// the trace reader and the CLI all ask here, and nothing else switches on the kind.
// A new collective is one file of lib/algo (its algorithms and its descriptor) plus
// one row in the registry (collectives.cc).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "algo/collective.h"
#include "algo/communicator.h"
#include "algo/data_pattern.h"
#include "core/collective_kind.h"

namespace ccb {

// kDirect: every part goes straight from its sender to its receiver (all-to-all,
// send/recv, gather, scatter). kHier: two levels, within each host and then across
// hosts, over the communicator's HostHierarchy (algo/host_hierarchy.h). kAuto is
// resolved per call (algo/algorithm_choice.h) and never runs as such.
enum class Algorithm { kRing, kTree, kRecursiveDoubling, kDirect, kHier, kAuto };

// The table a sweep prints: nccl-tests' columns, or perftest's for point-to-point tests.
enum class TableColumns { kCollective, kBandwidth, kLatency };
std::string_view algorithm_name(Algorithm a);
Algorithm parse_algorithm(std::string_view s);  // throws kInvalidArgument

struct CollectiveDescriptor {
  CollectiveKind kind;
  std::string_view name;                      // as nccl-tests names it: "allreduce"
  std::vector<std::string_view> trace_names;  // what a trace may call it besides
  std::vector<Algorithm> algorithms;          // what it has; the first is its default
  // It also runs as kHier, given a HostHierarchy; apart from `algorithms`, which are
  // what every communicator can run (and what --tune tries).
  bool hierarchical = false;
  // What --algo auto runs for small messages, and for medium ones on 4 ranks or more
  // (algo/algorithm_choice.h); kAuto: the default.
  Algorithm small_messages = Algorithm::kAuto;
  Algorithm medium_messages = Algorithm::kAuto;
  bool reduces = true;                        // false: no operator (shown as "none")
  bool rooted = false;                        // takes --root
  bool permuted = false;                      // takes --peer-map
  bool uneven = false;                        // takes --splits; never in place
  // The buffer (nccl-tests' size) is ranks parts of `count` elements (ReduceScatter's
  // input, AllGather's output), else `count` elements.
  bool per_rank_parts = false;
  bool windowed = false;                      // a call moves CollectiveArgs::window messages
  TableColumns columns = TableColumns::kCollective;
  double (*busbw_factor)(int ranks) = nullptr;  // nccl-tests' factor
  // One call, with the algorithm asked for.
  void (*run)(Communicator& comm, const ChunkPolicy& chunks, Algorithm a, const CollectiveArgs& args) = nullptr;
  // In place: send and recv alias as an in-place call of this collective has them;
  // null: the collective has no in-place form.
  void (*place_in_place)(CollectiveArgs& args, int rank) = nullptr;
  // Inputs where the call reads them (the check pattern, or zeros for timing).
  void (*fill)(const CollectiveArgs& args, const PatternSpec& p, int rank, bool zeros) = nullptr;
  // Elements of the outputs that differ from the pattern's exact result.
  uint64_t (*check)(const CollectiveArgs& args, const PatternSpec& p, int rank) = nullptr;
  // The ranks one call exchanges data with; null: algorithm_peers (the algorithm alone
  // decides).
  std::vector<int> (*peers)(Algorithm a, const CollectiveArgs& args, int rank, int size) = nullptr;

  bool supports(Algorithm a) const;  // kAuto: always
  // A buffer size must be a multiple of this: one element, or one per rank.
  uint64_t unit_bytes(DataType t, int ranks) const;
  size_t count(uint64_t bytes, DataType t, int ranks) const;  // CollectiveArgs::count
};

const CollectiveDescriptor& describe(CollectiveKind k);
// By its name or a trace's name for it; throws kInvalidArgument naming them all.
const CollectiveDescriptor& find_collective(std::string_view name);
const std::vector<const CollectiveDescriptor*>& all_collectives();

// The ranks an algorithm exchanges data with, so that every connection is made before
// any timed iteration.
std::vector<int> algorithm_peers(Algorithm a, int rank, int size);
// The same for one call of a collective, sorted: every rank opening its connections in
// ascending order cannot wait in a cycle.
std::vector<int> call_peers(const CollectiveDescriptor& d, Algorithm a, const CollectiveArgs& args, int rank, int size);

// Descriptor parts that several collectives share. nccl-tests' bus bandwidth factors:
double busbw_each_part(int ranks);  // (n-1)/n: each rank moves all parts but its own
double busbw_whole(int ranks);      // 1: the whole buffer crosses each link once
void place_one_buffer(CollectiveArgs& args, int rank);  // in place: send is recv
// count elements of this rank's own pattern (or zeros) where the call reads them.
void fill_own_input(const CollectiveArgs& args, const PatternSpec& p, int rank, bool zeros);
// all_gather's and gather's: the input is part `rank` of the n x count output.
void place_own_part_of_recv(CollectiveArgs& args, int rank);
void fill_own_part(const CollectiveArgs& args, const PatternSpec& p, int rank, bool zeros);
uint64_t count_wrong_gathered(const CollectiveArgs& args, const PatternSpec& p, int rank);  // part r: rank r's input
std::vector<int> every_rank(Algorithm a, const CollectiveArgs& args, int rank, int size);
std::vector<int> root_and_everyone(Algorithm a, const CollectiveArgs& args, int rank, int size);  // the root: all

// Throw kInvalidArgument naming the fix.
void validate_algorithm(CollectiveKind c, Algorithm a);
void validate_size(CollectiveKind c, DataType t, int ranks, uint64_t bytes);

}  // namespace ccb
