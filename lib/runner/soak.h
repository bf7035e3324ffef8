// A soak (--duration): the sizes called over and over for hours, every call's output
// checked, to catch the intermittent faults a short run misses (nccl-tests' -c N).
//
// The ranks run batches of calls (about half a second each, checks included, at one size, the sizes in
// turn) and agree after each batch, through the bootstrap, on what happened: the
// slowest rank's time, the wrong elements, the first wrong element anyone saw, and
// whether to stop. They stop together when rank 0's clock passes the duration, or when
// any rank got SIGINT or SIGTERM; nothing measured is lost either way.
//
// The first wrong element is reported with its rank, byte offset, expected and got
// value; the soak goes on counting. A test-only fault hook, CCB_TEST_FAULT=
// "flip:rank=R,call=N,byte=B", flips byte B of rank R's output after its call N (counted
// from 1 over the whole soak), so tests can prove that corruption is caught.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runner/collective_runner.h"

namespace ccb {

struct SoakOptions {
  double duration_s = 0;
  double batch_s = 0.5;  // target length of a batch between agreements
};

struct WrongElement {
  int rank = 0;
  uint64_t bytes = 0;      // the size of the call
  uint64_t call = 0;       // the call, counted from 1 over the whole soak
  long long offset = -1;   // byte offset in the receive buffer
  size_t element = 0;
  double expected = 0, got = 0;
  double elapsed_s = 0;
};

// One size's soak so far, as rank 0's record and table show it.
struct SoakSize {
  uint64_t bytes = 0;
  Algorithm algorithm = Algorithm::kRing;  // what ran at this size (auto resolved)
  uint64_t calls = 0;
  double slowest_total_us = 0;          // per batch the slowest rank's time, summed
  std::vector<double> batch_mean_us;    // each batch's slowest-rank mean call
  double busbw_last_gbps = 0, busbw_worst_gbps = 0;
  uint64_t wrong = 0;
  std::vector<double> rank_cpu_s = {};  // each rank's CPU time in this size's batches
  double wall_s = 0;                    // those batches' wall time, the slowest rank's
};

struct SoakState {
  double elapsed_s = 0;
  std::vector<SoakSize> sizes;
  std::optional<WrongElement> first_wrong;
  std::string stopped_by;  // "duration", "SIGINT", "SIGTERM"; "" while running
  uint64_t wrong() const;
};

std::string describe(const WrongElement& w);  // "rank 1, call 5 of 1 MiB: byte 4000 ..."

// Runs on every rank. `after_batch` is called on every rank after each agreement, with
// the same state everywhere (rank 0 prints and records). Returns the final state.
SoakState run_soak(CollectiveRunner& runner, Bootstrap& boot, const std::vector<uint64_t>& sizes,
                   const SoakOptions& options, const std::function<void(const SoakState&)>& after_batch);

// A SizeResult of the soak of one size, so the table and the record show it as a run.
SizeResult soak_result(const CollectiveRunner& runner, int ranks, const SoakSize& s);

}  // namespace ccb
