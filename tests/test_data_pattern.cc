#include <catch2/catch.hpp>
#include <vector>

#include "core/reduce.h"
#include "reference_reduce.h"
#include "algo/data_pattern.h"

using namespace ccb;

// The benchmark's check pattern must give the same bits whatever the reduction order.
TEST_CASE("check patterns reduce exactly in any order", "[pattern]") {
  for (DataType t : all_dtypes())
    for (ReduceOp op : all_ops())
      for (int world : {1, 2, 3, 8, 64}) {
        INFO(dtype_name(t) << " " << op_name(op) << " world " << world);
        PatternSpec p{t, op, world};
        const size_t count = 257;
        std::vector<std::vector<char>> in(world, std::vector<char>(count * 8));
        for (int r = 0; r < world; ++r) fill_pattern(in[r].data(), count, 0, p, r);
        std::vector<char> fwd = in[0], bwd = in[world - 1];
        for (int r = 1; r < world; ++r) reduce(fwd.data(), fwd.data(), in[r].data(), count, t, op);
        for (int r = world - 2; r >= 0; --r) reduce(bwd.data(), bwd.data(), in[r].data(), count, t, op);
        if (op == ReduceOp::kAvg) {
          divide(fwd.data(), count, t, world);
          divide(bwd.data(), count, t, world);
        }
        REQUIRE(count_wrong(fwd.data(), count, 0, p) == 0);
        REQUIRE(count_wrong(bwd.data(), count, 0, p) == 0);
      }
}

TEST_CASE("a single flipped element is counted", "[pattern]") {
  PatternSpec p{DataType::kF32, ReduceOp::kSum, 4};
  std::vector<float> v(100);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(expected_value(p, i));
  CHECK(count_wrong(v.data(), v.size(), 0, p) == 0);
  v[42] += 1;
  CHECK(count_wrong(v.data(), v.size(), 0, p) == 1);
}
