// all_to_allv's splits: the routing model's rows, the matrix file's checks, and the
// offsets both sides of a part agree on.
#include <catch2/catch.hpp>
#include <fstream>
#include <numeric>

#include "algo/splits.h"
#include "temp_dir.h"

using namespace ccb;

namespace {

SplitSpec matrix_file(const std::string& dir, const std::string& text) {
  const std::string path = dir + "/m.txt";
  std::ofstream(path) << text;
  return parse_split_spec(path);
}

}  // namespace

TEST_CASE("the routing model: rows sum to the buffer, the same on every rank for a seed, skewed as asked", "[splits]") {
  const SplitSpec s = parse_split_spec("moe:skew=2,seed=11");
  CHECK((s.routing && s.skew == 2.0 && s.seed == 11));
  const SplitMatrix a = make_splits(s, 8, DataType::kBF16, 1 << 20), b = make_splits(s, 8, DataType::kBF16, 1 << 20);
  CHECK(a.elements == b.elements);  // a pure function: every rank computes the same matrix
  for (int from = 0; from < 8; ++from) {
    uint64_t sum = 0;
    for (int to = 0; to < 8; ++to) sum += a.at(from, to);
    CHECK(sum == 1 << 20);
  }
  // Skew 2 over 8 experts: the most popular takes about 1 / (1 + 1/4 + 1/9 + ...) = 65%.
  uint64_t hottest = 0;
  for (int to = 0; to < 8; ++to) hottest = std::max(hottest, a.recv_total(to));
  CHECK(hottest > 8ull * (1 << 20) * 55 / 100);
  // Another seed routes elsewhere; skew 0 is close to uniform.
  CHECK(make_splits(parse_split_spec("moe:skew=2,seed=12"), 8, DataType::kBF16, 1 << 20).elements != a.elements);
  const SplitMatrix flat = make_splits(parse_split_spec("moe:skew=0"), 4, DataType::kF32, 1 << 20);
  for (int to = 0; to < 4; ++to) CHECK(flat.at(0, to) == Approx((1 << 20) / 4).epsilon(0.03));
  // Few elements and a steep law leave experts empty.
  const SplitMatrix sparse = make_splits(parse_split_spec("moe:skew=4,seed=1"), 16, DataType::kF32, 5);
  CHECK(std::count(sparse.elements.begin(), sparse.elements.end(), 0u) > 16 * 8);
}

TEST_CASE("a split matrix: offsets in rank order on both sides, and its buffer is the largest row", "[splits]") {
  test::TempDir tmp;
  const SplitSpec s = matrix_file(tmp.path, "# from \\ to\n0, 8, 4\n\n0 0 0\n4 4 4  # the largest row\n");
  CHECK(split_buffer_bytes(s, 3, DataType::kF32) == 12);
  const SplitMatrix m = make_splits(s, 3, DataType::kF32, 3);
  CHECK(m.at(0, 1) == 2);
  CHECK(m.send_offset(2, 2) == 2);      // rank 2 sends 1 element to 0, 1 to 1, then its own
  CHECK(m.recv_offset(2, 1) == 2);      // rank 1 receives rank 0's 2 elements first
  CHECK(m.recv_total(1) == 3);
  CHECK(m.recv_total(0) == 1);
  CHECK(m.largest_recv_total() == 3);
  CHECK_NOTHROW(split_buffer_bytes(s, 3, DataType::kF32, 12));
}

TEST_CASE("bad split matrices name the row and the fix", "[splits]") {
  test::TempDir tmp;
  CHECK_THROWS_WITH(split_buffer_bytes(matrix_file(tmp.path, "4 4\n4 4\n"), 3, DataType::kF32),
                    Catch::Contains("has 2 rows for 3 ranks"));
  CHECK_THROWS_WITH(split_buffer_bytes(matrix_file(tmp.path, "4 4\n4\n"), 2, DataType::kF32),
                    Catch::Contains("row 2 has 1 columns for 2 ranks"));
  CHECK_THROWS_WITH(split_buffer_bytes(matrix_file(tmp.path, "4 -4\n4 4\n"), 2, DataType::kU8),
                    Catch::Contains("row 1 has a negative entry (-4)"));
  CHECK_THROWS_WITH(split_buffer_bytes(matrix_file(tmp.path, "4 6\n4 4\n"), 2, DataType::kF32),
                    Catch::Contains("row 1: 6 B is not a whole number of float elements"));
  CHECK_THROWS_WITH(split_buffer_bytes(matrix_file(tmp.path, "4 4\n8 8\n"), 2, DataType::kF32, 8),
                    Catch::Contains("row 2 sums to 16 B, more than the buffer of 8 B"));
  CHECK_THROWS_WITH(split_buffer_bytes(matrix_file(tmp.path, "4 4\n8 8\n"), 2, DataType::kF32, 32),
                    Catch::Contains("largest row sums to 16 B, not the buffer of 32 B"));
  CHECK_THROWS_WITH(matrix_file(tmp.path, "4 four\n"), Catch::Contains("m.txt:1: 'four' is not a whole number of bytes"));
  CHECK_THROWS_WITH(matrix_file(tmp.path, "99999999999999999999 1\n"), Catch::Contains("is not a whole number of bytes"));
  CHECK_THROWS_WITH(parse_split_spec("moe:skew=-1"), Catch::Contains("is not skew=S (0 or more) or seed=N"));
  CHECK_THROWS_WITH(parse_split_spec("moe:heat=3"), Catch::Contains("'heat=3' is not skew=S"));
  CHECK_THROWS_WITH(parse_split_spec("moe:skew=inf"), Catch::Contains("skew must be a number from 0 to 100"));
}
