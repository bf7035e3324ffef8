// Where each piece of a ring collective lives: segments (one per rank, sizes differing
// by at most one element) cut into the same number of chunks on every rank.
#pragma once
#include <cstddef>

namespace ccb {

struct ElementRange {
  size_t begin = 0;
  size_t count = 0;
  bool empty() const { return count == 0; }
};

class RingSchedule {
 public:
  // `count` elements over `ranks` segments; chunks of at most about chunk_elems.
  RingSchedule(size_t count, int ranks, size_t chunk_elems);
  // Equal segments of `per_rank` elements each (reduce-scatter, all-gather).
  static RingSchedule uniform(size_t per_rank, int ranks, size_t chunk_elems);

  int ranks() const { return ranks_; }
  size_t chunks_per_segment() const { return chunks_; }
  ElementRange segment(int s) const;
  ElementRange chunk(int segment, size_t c) const;
  // The segment index r - k, wrapped into [0, ranks).
  int wrap(long long r) const { return static_cast<int>(((r % ranks_) + ranks_) % ranks_); }

 private:
  RingSchedule(int ranks, size_t base, size_t extra, size_t chunk_elems);
  int ranks_;
  size_t base_;   // elements per segment...
  size_t extra_;  // ...plus one for the first `extra_` segments
  size_t chunks_;
};

}  // namespace ccb
