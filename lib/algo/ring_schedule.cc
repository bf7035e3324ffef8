#include "algo/ring_schedule.h"

#include <algorithm>

namespace ccb {

RingSchedule::RingSchedule(int ranks, size_t base, size_t extra, size_t chunk_elems)
    : ranks_(ranks), base_(base), extra_(extra) {
  size_t largest = base + (extra > 0 ? 1 : 0);
  size_t per_chunk = std::max<size_t>(chunk_elems, 1);
  chunks_ = std::max<size_t>(1, (largest + per_chunk - 1) / per_chunk);
}

RingSchedule::RingSchedule(size_t count, int ranks, size_t chunk_elems)
    : RingSchedule(ranks, count / ranks, count % ranks, chunk_elems) {}

RingSchedule RingSchedule::uniform(size_t per_rank, int ranks, size_t chunk_elems) {
  return RingSchedule(ranks, per_rank, 0, chunk_elems);
}

ElementRange RingSchedule::segment(int s) const {
  size_t i = static_cast<size_t>(s);
  return {i * base_ + std::min(i, extra_), base_ + (i < extra_ ? 1 : 0)};
}

ElementRange RingSchedule::chunk(int seg, size_t c) const {
  ElementRange s = segment(seg);
  size_t lo = s.count * c / chunks_, hi = s.count * (c + 1) / chunks_;
  return {s.begin + lo, hi - lo};
}

}  // namespace ccb
