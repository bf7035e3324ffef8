#include "algo/collectives.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "algo/binary_tree.h"
#include "algo/recursive_doubling.h"
#include "core/error.h"

namespace ccb {

// Each collective's file defines its descriptor.
const CollectiveDescriptor& allreduce_descriptor();
const CollectiveDescriptor& reduce_scatter_descriptor();
const CollectiveDescriptor& all_gather_descriptor();
const CollectiveDescriptor& broadcast_descriptor();
const CollectiveDescriptor& reduce_descriptor();
const CollectiveDescriptor& all_to_all_descriptor();
const CollectiveDescriptor& send_recv_descriptor();
const CollectiveDescriptor& all_to_allv_descriptor();
const CollectiveDescriptor& gather_descriptor();
const CollectiveDescriptor& scatter_descriptor();
const CollectiveDescriptor& p2p_bw_descriptor();
const CollectiveDescriptor& p2p_bidir_descriptor();
const CollectiveDescriptor& p2p_lat_descriptor();

// The registry: one row per collective.
const std::vector<const CollectiveDescriptor*>& all_collectives() {
  static const std::vector<const CollectiveDescriptor*> all{
      &allreduce_descriptor(),
      &reduce_scatter_descriptor(),
      &all_gather_descriptor(),
      &broadcast_descriptor(),
      &reduce_descriptor(),
      &all_to_all_descriptor(),
      &send_recv_descriptor(),
      &all_to_allv_descriptor(),
      &gather_descriptor(),
      &scatter_descriptor(),
      &p2p_bw_descriptor(),
      &p2p_bidir_descriptor(),
      &p2p_lat_descriptor(),
  };
  return all;
}

std::string_view algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::kRing: return "ring";
    case Algorithm::kTree: return "tree";
    case Algorithm::kRecursiveDoubling: return "rd";
    case Algorithm::kDirect: return "direct";
    case Algorithm::kHier: return "hier";
    case Algorithm::kAuto: return "auto";
  }
  return "?";
}

Algorithm parse_algorithm(std::string_view s) {
  for (Algorithm a : {Algorithm::kRing, Algorithm::kTree, Algorithm::kRecursiveDoubling, Algorithm::kDirect, Algorithm::kHier,
                      Algorithm::kAuto})
    if (s == algorithm_name(a)) return a;
  throw_invalid("unknown algorithm '" + std::string(s) +
                "': use auto, ring, tree, rd (recursive doubling), hier (within hosts, then across) or direct");
}

bool CollectiveDescriptor::supports(Algorithm a) const {
  return a == Algorithm::kAuto || (a == Algorithm::kHier && hierarchical) ||
         std::find(algorithms.begin(), algorithms.end(), a) != algorithms.end();
}

uint64_t CollectiveDescriptor::unit_bytes(DataType t, int ranks) const {
  return dtype_size(t) * (per_rank_parts ? static_cast<uint64_t>(ranks) : 1);
}

size_t CollectiveDescriptor::count(uint64_t bytes, DataType t, int ranks) const {
  return static_cast<size_t>(bytes / unit_bytes(t, ranks));
}

const CollectiveDescriptor& describe(CollectiveKind k) {
  for (const CollectiveDescriptor* d : all_collectives())
    if (d->kind == k) return *d;
  throw_invalid("no descriptor for collective " + std::string(collective_name(k)));
}

const CollectiveDescriptor& find_collective(std::string_view name) {
  std::string known;
  for (const CollectiveDescriptor* d : all_collectives()) {
    if (name == d->name || std::find(d->trace_names.begin(), d->trace_names.end(), name) != d->trace_names.end())
      return *d;
    known += (known.empty() ? "" : ", ") + std::string(d->name);
  }
  throw_invalid("unknown collective '" + std::string(name) + "': use " + known);
}

std::vector<int> algorithm_peers(Algorithm a, int rank, int size) {
  std::set<int> peers;
  if (size > 1 && a == Algorithm::kRing) peers = {(rank + size - 1) % size, (rank + 1) % size};
  if (size > 1 && a == Algorithm::kTree)
    for (int tree = 0; tree < 2; ++tree) {
      TreeNode node = double_tree_node(size, rank, tree);
      if (node.parent >= 0) peers.insert(node.parent);
      peers.insert(node.children.begin(), node.children.end());
    }
  if (size > 1 && a == Algorithm::kRecursiveDoubling)
    for (int p : RecursiveDoublingAllreduce::peers(rank, size)) peers.insert(p);
  peers.erase(rank);
  return {peers.begin(), peers.end()};
}

std::vector<int> call_peers(const CollectiveDescriptor& d, Algorithm a, const CollectiveArgs& args, int rank, int size) {
  // Two levels run on the hierarchy's own connections; the world's carry nothing.
  if (!d.peers || a == Algorithm::kHier) return algorithm_peers(a, rank, size);
  std::vector<int> peers = d.peers(a, args, rank, size);
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  peers.erase(std::remove(peers.begin(), peers.end(), rank), peers.end());
  return peers;
}

double busbw_each_part(int n) { return n > 1 ? static_cast<double>(n - 1) / n : 0.0; }
double busbw_whole(int) { return 1.0; }

void place_one_buffer(CollectiveArgs& a, int) { a.send = a.recv; }

void fill_own_input(const CollectiveArgs& a, const PatternSpec& p, int rank, bool zeros) {
  if (zeros) std::memset(a.send.data(), 0, a.count * dtype_size(a.dtype));
  else fill_pattern(a.send.data(), a.count, 0, p, rank);
}

void place_own_part_of_recv(CollectiveArgs& a, int rank) {
  a.send = {a.recv.region, a.recv.offset + static_cast<size_t>(rank) * a.count * dtype_size(a.dtype)};
}

void fill_own_part(const CollectiveArgs& a, const PatternSpec& p, int rank, bool zeros) {
  if (zeros) std::memset(a.send.data(), 0, a.count * dtype_size(a.dtype));
  else fill_pattern(a.send.data(), a.count, static_cast<size_t>(rank) * a.count, p, rank);
}

uint64_t count_wrong_gathered(const CollectiveArgs& a, const PatternSpec& p, int) {
  const size_t part = a.count * dtype_size(a.dtype);
  uint64_t wrong = 0;
  for (int r = 0; r < p.world; ++r)
    wrong += count_wrong_input(a.recv.data() + static_cast<size_t>(r) * part, a.count, static_cast<size_t>(r) * a.count, p, r);
  return wrong;
}

std::vector<int> every_rank(Algorithm, const CollectiveArgs&, int, int size) {
  std::vector<int> all;
  for (int r = 0; r < size; ++r) all.push_back(r);
  return all;
}

std::vector<int> root_and_everyone(Algorithm a, const CollectiveArgs& args, int rank, int size) {
  return rank == args.root ? every_rank(a, args, rank, size) : std::vector<int>{args.root};
}

void validate_algorithm(CollectiveKind c, Algorithm a) {
  const CollectiveDescriptor& d = describe(c);
  if (!d.supports(a))
    throw_invalid("the " + std::string(algorithm_name(a)) + " algorithm does not exist for " + std::string(d.name) +
                  ": use --algo " + std::string(algorithm_name(d.algorithms.front())));
}

void validate_size(CollectiveKind c, DataType t, int ranks, uint64_t bytes) {
  const uint64_t esize = dtype_size(t), unit = describe(c).unit_bytes(t, ranks);
  if (bytes % unit != 0)
    throw_invalid("size " + std::to_string(bytes) + " B is not a multiple of " + std::to_string(unit) + " B (" +
                  std::string(dtype_name(t)) + " is " + std::to_string(esize) + " B" +
                  (unit != esize ? ", times " + std::to_string(ranks) + " ranks" : "") + "): pick another size");
}

}  // namespace ccb
