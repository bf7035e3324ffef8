#include <catch2/catch.hpp>

#include "algo/ring_schedule.h"

using namespace ccb;

TEST_CASE("ring segments and chunks tile the buffer exactly", "[ring]") {
  for (int n : {1, 2, 3, 5, 8, 64})
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{63}, size_t{1023}, size_t{1048579}})
      for (size_t chunk : {size_t{1}, size_t{100}, size_t{131072}}) {
        RingSchedule s(count, n, chunk);
        size_t next = 0;
        for (int seg = 0; seg < n; ++seg) {
          ElementRange r = s.segment(seg);
          REQUIRE(r.begin == next);
          for (size_t c = 0; c < s.chunks_per_segment(); ++c) {
            ElementRange ch = s.chunk(seg, c);
            REQUIRE(ch.begin == next);
            next += ch.count;
          }
          REQUIRE(next == r.begin + r.count);
          REQUIRE(r.count + 1 >= count / n);
        }
        REQUIRE(next == count);
      }
}

TEST_CASE("wrap keeps segment indices in range", "[ring]") {
  RingSchedule s(10, 4, 1);
  CHECK(s.wrap(-1) == 3);
  CHECK(s.wrap(-9) == 3);
  CHECK(s.wrap(4) == 0);
}
