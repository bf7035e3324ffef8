// all_to_allv's uneven splits: how many elements each rank sends to each rank. They
// come from a matrix file (rows are senders, columns receivers, in bytes; the buffer,
// nccl-tests' size, is the largest row's sum, and a rank may send less, or nothing) or
// from a mixture-of-experts routing model: each rank is one expert, and a sender's
// tokens go to experts drawn from a Zipf law of the stated skew, in an order of
// popularity drawn from the seed, the same on every rank. Under the model every rank
// sends the whole buffer and receivers get uneven shares; zero-length splits are normal.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace ccb {

struct SplitMatrix {
  int ranks = 0;
  std::vector<uint64_t> elements;  // ranks x ranks, row-major: [from * ranks + to]

  uint64_t at(int from, int to) const { return elements[static_cast<size_t>(from) * static_cast<size_t>(ranks) + static_cast<size_t>(to)]; }
  // Where `from`'s part for `to` starts in from's send buffer, and where it lands in
  // to's receive buffer (parts ordered by the other rank).
  uint64_t send_offset(int from, int to) const;
  uint64_t recv_offset(int from, int to) const;
  uint64_t recv_total(int to) const;
  uint64_t largest_recv_total() const;
};

// --splits: a matrix file, or "moe:skew=S,seed=N" (skew >= 0; 0 is uniform).
struct SplitSpec {
  std::string text;                         // the flag, for messages
  std::vector<std::vector<int64_t>> bytes;  // the file's rows, as written (checked later)
  bool routing = false;
  double skew = 1.0;
  uint64_t seed = 1;
};

// Reads and parses; throws kInvalidArgument naming the flag, the line and the fix.
SplitSpec parse_split_spec(const std::string& flag);
// The matrix file's buffer (its largest row sum); throws when the file is not a ranks x
// ranks matrix of non-negative whole elements, or when `size` (0: not given) is not
// that buffer. 0 for a model.
uint64_t split_buffer_bytes(const SplitSpec& s, int ranks, DataType t, uint64_t size = 0);
// The splits of a buffer of `count` elements per rank.
SplitMatrix make_splits(const SplitSpec& s, int ranks, DataType t, uint64_t count);

}  // namespace ccb
