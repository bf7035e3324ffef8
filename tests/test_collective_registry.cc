// The collective registry: every descriptor complete, every name found, the peers an
// algorithm connects before timing symmetric (both ends of a connection ask for it),
// and the count, padding and bandwidth rules each collective states.
#include <catch2/catch.hpp>
#include <algorithm>
#include <set>

#include "algo/algorithm_choice.h"
#include "algo/binary_tree.h"
#include "algo/collectives.h"
#include "core/error.h"

using namespace ccb;

TEST_CASE("every collective has a complete descriptor, found by its names", "[registry]") {
  std::set<std::string_view> names;
  for (const CollectiveDescriptor* d : all_collectives()) {
    INFO(d->name);
    CHECK(d->run);
    // Only these have no in-place form: their ranks receive other amounts than they
    // send, or a message and its answer would share one buffer.
    const bool has_in_place = !d->uneven && d->columns == TableColumns::kCollective;
    CHECK((d->place_in_place != nullptr) == has_in_place);
    CHECK(d->fill);
    CHECK(d->check);
    CHECK(d->busbw_factor);
    CHECK_FALSE(d->algorithms.empty());
    CHECK(names.insert(d->name).second);
    CHECK(&describe(d->kind) == d);
    CHECK(&find_collective(d->name) == d);
    for (std::string_view alias : d->trace_names) {
      CHECK(names.insert(alias).second);
      CHECK(&find_collective(alias) == d);
    }
  }
  CHECK_THROWS_WITH(find_collective("hypercube"),
                    Catch::Contains("use allreduce, reduce_scatter, all_gather, broadcast, reduce, all_to_all, send_recv, "
                                    "all_to_allv, gather, scatter, p2p_bw, p2p_bidir, p2p_lat"));
  CHECK(find_collective("alltoall").kind == CollectiveKind::kAllToAll);
  CHECK(find_collective("sendrecv").kind == CollectiveKind::kSendRecv);
}

TEST_CASE("the peers an algorithm connects are symmetric, and are its neighbours", "[registry]") {
  for (Algorithm a : {Algorithm::kRing, Algorithm::kTree, Algorithm::kRecursiveDoubling})
    for (int n = 1; n <= 64; ++n)
      for (int r = 0; r < n; ++r)
        for (int p : algorithm_peers(a, r, n)) {
          INFO(algorithm_name(a) << " n=" << n << " rank " << r << " peer " << p);
          CHECK(p != r);
          std::vector<int> back = algorithm_peers(a, p, n);
          CHECK(std::find(back.begin(), back.end(), r) != back.end());
        }
  CHECK(algorithm_peers(Algorithm::kRing, 0, 4) == std::vector<int>{1, 3});
  CHECK(algorithm_peers(Algorithm::kRing, 0, 1).empty());
  CHECK(algorithm_peers(Algorithm::kTree, 0, 2) == std::vector<int>{1});
  // Recursive doubling over 6 ranks: 4 and 5 fold into 0 and 1, which also pair up.
  CHECK(algorithm_peers(Algorithm::kRecursiveDoubling, 0, 6) == std::vector<int>{1, 2, 4});
  CHECK(algorithm_peers(Algorithm::kRecursiveDoubling, 5, 6) == std::vector<int>{1});
  CHECK(algorithm_peers(Algorithm::kRecursiveDoubling, 3, 6) == std::vector<int>{1, 2});
}

TEST_CASE("every call's peers are symmetric: rooted trees and chains, all-to-all, send/recv maps", "[registry]") {
  for (const CollectiveDescriptor* d : all_collectives())
    for (Algorithm a : d->algorithms)
      for (int n = 1; n <= 17; ++n)
        for (int root : {0, n / 2, n - 1}) {
          // send/recv: r -> r+2, a permutation that is not the default; point-to-point
          // tests: the round-robin pairs of a scan, an involution.
          std::vector<int> shift, paired;
          for (int r = 0; r < n; ++r) shift.push_back((r + 2) % n), paired.push_back(r);
          for (int r = 0; r + 1 < n; r += 2) paired[static_cast<size_t>(r)] = n - 1 - r, paired[static_cast<size_t>(n - 1 - r)] = r;
          const std::vector<int>* map = d->columns == TableColumns::kCollective ? &shift : &paired;
          CollectiveArgs args{{}, {}, 1, DataType::kF32, ReduceOp::kSum, root, map};
          for (int r = 0; r < n; ++r)
            for (int p : call_peers(*d, a, args, r, n)) {
              INFO(d->name << " " << algorithm_name(a) << " n=" << n << " root " << root << " rank " << r << " peer " << p);
              CHECK((p >= 0 && p < n && p != r));
              std::vector<int> back = call_peers(*d, a, args, p, n);
              CHECK(std::find(back.begin(), back.end(), r) != back.end());
            }
        }
}

TEST_CASE("rooted trees: the chain visits every rank from the root, the tree spans them", "[registry]") {
  for (int n = 1; n <= 33; ++n)
    for (int root = 0; root < n; ++root)
      for (bool chain : {true, false}) {
        INFO("n=" << n << " root " << root << (chain ? " chain" : " tree"));
        std::vector<int> reached{root}, todo{root};
        CHECK(rooted_tree_node(n, root, root, chain).parent == -1);
        while (!todo.empty()) {
          int at = todo.back();
          todo.pop_back();
          for (int c : rooted_tree_node(n, at, root, chain).children) {
            CHECK(rooted_tree_node(n, c, root, chain).parent == at);
            reached.push_back(c);
            todo.push_back(c);
          }
        }
        CHECK(reached.size() == static_cast<size_t>(n));
        CHECK(std::set<int>(reached.begin(), reached.end()).size() == static_cast<size_t>(n));
      }
}

TEST_CASE("auto: recursive doubling for small AllReduces, each collective's default otherwise", "[registry]") {
  const CollectiveDescriptor &ar = describe(CollectiveKind::kAllreduce), &ag = describe(CollectiveKind::kAllGather);
  CHECK(shipped_algorithm(ar, 4, 8) == Algorithm::kRecursiveDoubling);
  CHECK(shipped_algorithm(ar, 4, kShippedLatencyBytes) == Algorithm::kRecursiveDoubling);
  CHECK(shipped_algorithm(ar, 4, kShippedLatencyBytes + 4) == Algorithm::kTree);
  CHECK(shipped_algorithm(ar, 2, kShippedLatencyBytes + 4) == Algorithm::kRing);
  CHECK(shipped_algorithm(ar, 8, kShippedMediumBytes) == Algorithm::kTree);
  CHECK(shipped_algorithm(ar, 8, kShippedMediumBytes + 4) == Algorithm::kRing);
  CHECK(shipped_algorithm(ar, 1, 8) == Algorithm::kRing);
  CHECK(shipped_algorithm(ag, 4, 8) == Algorithm::kRing);
  const CollectiveDescriptor& bc = describe(CollectiveKind::kBroadcast);
  CHECK(shipped_algorithm(bc, 4, 8) == Algorithm::kTree);
  CHECK(shipped_algorithm(bc, 4, 64 << 20) == Algorithm::kRing);
  CHECK(ag.supports(Algorithm::kAuto));
  // With host levels, hier above its threshold for the collectives that run in two
  // levels; the rest, and smaller calls, as without.
  CHECK(shipped_algorithm(ar, 4, kShippedHierBytes + 4, true) == Algorithm::kHier);
  CHECK(shipped_algorithm(ag, 4, kShippedHierBytes + 4, true) == Algorithm::kHier);
  CHECK(shipped_algorithm(ar, 4, kShippedHierBytes + 4, false) != Algorithm::kHier);
  CHECK(shipped_algorithm(ar, 4, 8, true) == Algorithm::kRecursiveDoubling);
  CHECK(shipped_algorithm(describe(CollectiveKind::kReduce), 4, 64 << 20, true) != Algorithm::kHier);
  CHECK(parse_algorithm("auto") == Algorithm::kAuto);
  CHECK_THROWS_WITH(parse_algorithm("fast"), Catch::Contains("use auto, ring, tree, rd (recursive doubling), hier (within hosts, then across) or direct"));
  CHECK(parse_algorithm("hier") == Algorithm::kHier);
  CHECK(ar.supports(Algorithm::kHier));
  CHECK(ag.supports(Algorithm::kHier));
  CHECK(bc.supports(Algorithm::kHier));
  CHECK(describe(CollectiveKind::kReduceScatter).supports(Algorithm::kHier));
  CHECK_FALSE(describe(CollectiveKind::kReduce).supports(Algorithm::kHier));
  CHECK_FALSE(describe(CollectiveKind::kAllToAll).supports(Algorithm::kHier));
}

TEST_CASE("count, padding, bus bandwidth and algorithms per collective", "[registry]") {
  const CollectiveDescriptor &ar = describe(CollectiveKind::kAllreduce), &rs = describe(CollectiveKind::kReduceScatter),
                             &ag = describe(CollectiveKind::kAllGather);
  CHECK(ar.count(4096, DataType::kF32, 4) == 1024);
  CHECK(rs.count(4096, DataType::kF32, 4) == 256);  // each rank's part
  CHECK(ag.unit_bytes(DataType::kBF16, 8) == 16);
  CHECK(ar.busbw_factor(4) == Approx(1.5));
  CHECK(rs.busbw_factor(4) == Approx(0.75));
  CHECK(ar.supports(Algorithm::kTree));
  // nccl-tests' factors for the rest: 1 for broadcast, reduce and send/recv, (n-1)/n for all-to-all.
  CHECK(describe(CollectiveKind::kBroadcast).busbw_factor(8) == 1.0);
  CHECK(describe(CollectiveKind::kReduce).busbw_factor(8) == 1.0);
  CHECK(describe(CollectiveKind::kSendRecv).busbw_factor(8) == 1.0);
  CHECK(describe(CollectiveKind::kAllToAll).busbw_factor(4) == Approx(0.75));
  CHECK(describe(CollectiveKind::kAllToAll).count(4096, DataType::kF32, 4) == 256);  // per peer
  CHECK_FALSE(ag.supports(Algorithm::kTree));
  CHECK_FALSE(ag.reduces);
  CHECK_THROWS_WITH(validate_algorithm(CollectiveKind::kReduceScatter, Algorithm::kTree), Catch::Contains("--algo ring"));
  CHECK_THROWS_WITH(validate_size(CollectiveKind::kAllGather, DataType::kF32, 3, 16), Catch::Contains("times 3 ranks"));
  CollectiveArgs a{{nullptr, 0}, {nullptr, 64}, 4, DataType::kF32, ReduceOp::kSum};
  rs.place_in_place(a, 2);
  CHECK(a.recv.offset == 32);  // rank 2's part of the input: 2 x 4 floats in
}
