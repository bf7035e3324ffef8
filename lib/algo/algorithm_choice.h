// What `--algo auto` runs: per collective, world size and message size, one concrete
// algorithm. The shipped table comes from sweeps over loopback TCP and the shaped
// 2 Gbit/s cluster (results/2026-12-04-algo-auto); `--tune` replaces it with what this
// job measures at start-up (runner/algorithm_tuner.h). Every rank must choose alike, so
// the choice is a pure function of what every rank knows.
#pragma once
#include <cstdint>

#include "algo/collectives.h"

namespace ccb {

// Up to this many bytes a collective's small-message algorithm runs (AllReduce's
// recursive doubling: log2(n) whole-buffer exchanges instead of the ring's 2(n-1)
// latency-bound steps; the binary tree for broadcast and reduce instead of the chain's
// n-1 hops); above it the default's bandwidth wins.
inline constexpr uint64_t kShippedLatencyBytes = 64 * 1024;
// From there up to this many bytes, on 4 ranks or more, a collective's medium-message
// algorithm runs (AllReduce's double binary tree: at 4 ranks it took 0.71-0.87x the
// ring's time at 512 KiB and 2 MiB, results/2026-12-04-auto-vs-algos).
inline constexpr uint64_t kShippedMediumBytes = 4 * 1024 * 1024;

// The shipped choice for one call; never kAuto.
Algorithm shipped_algorithm(const CollectiveDescriptor& d, int world, uint64_t bytes);

}  // namespace ccb
