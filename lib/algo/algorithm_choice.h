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

// Above this many bytes, in a job that spans hosts of the same number of ranks (more
// than one each), a collective that runs in two levels runs as hier: each host's bytes
// then cross its NICs once, split over its rails, instead of the flat ring's 2(n-1)/n
// per rank through whichever cable the ring crosses. On 2 hosts of 2 ranks at 2 Gbit/s
// a cable, hier took 0.50-0.75x the best flat algorithm's time from 64 KiB to 16 MiB on
// one rail and 0.42-0.53x on two; at 16 KiB 0.92-1.07x, at 4 KiB 1.3-1.4x
// (results/2026-12-07-hier-vs-flat).
inline constexpr uint64_t kShippedHierBytes = 32 * 1024;

// The shipped choice for one call; never kAuto. `hierarchy`: the job has host levels
// (algo/host_hierarchy.h) that a hier call can run on.
Algorithm shipped_algorithm(const CollectiveDescriptor& d, int world, uint64_t bytes, bool hierarchy = false);

}  // namespace ccb
