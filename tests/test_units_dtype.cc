#include <catch2/catch.hpp>
#include <tuple>

#include "core/dtype.h"
#include "core/error.h"
#include "core/units.h"

using namespace ccb;

TEST_CASE("sizes parse with binary suffixes", "[units]") {
  CHECK(parse_bytes("8") == 8);
  CHECK(parse_bytes("64K") == 65536);
  CHECK(parse_bytes("25M") == 25ull << 20);
  CHECK(parse_bytes("1G") == 1ull << 30);
  CHECK(parse_bytes("4KiB") == 4096);
  CHECK(parse_byte_list("1M,25M") == std::vector<uint64_t>{1 << 20, 25 << 20});
  CHECK_THROWS_WITH(parse_bytes("12Q"), Catch::Contains("suffix"));
  CHECK_THROWS_WITH(parse_bytes("abc"), Catch::Contains("bad size"));
  CHECK_THROWS_WITH(parse_byte_list("1M,"), Catch::Contains("comma"));
  CHECK_THROWS_AS(parse_bytes("99999999999999999999G"), Error);
  CHECK(format_bytes(25ull << 20) == "25 MiB");
  CHECK(format_bytes(1000) == "1000 B");
  // One unit family: the largest unit the size reaches, rounded, never 1024016 KiB.
  CHECK(format_bytes(1024016ull << 10) == "1000.0 MiB");
  CHECK(format_bytes(1536ull << 20) == "1.500 GiB");
  CHECK(format_bytes(4ull << 30) == "4 GiB");
}

TEST_CASE("types and operators parse by nccl-tests' names and short names", "[dtype]") {
  CHECK(parse_dtype("float") == DataType::kF32);
  CHECK(parse_dtype("bf16") == DataType::kBF16);
  CHECK(parse_dtype("half") == DataType::kF16);
  CHECK(dtype_size(DataType::kI64) == 8);
  // nccl-tests' twelve types, by its names.
  for (auto [name, type, size] : {std::tuple{"int8", DataType::kI8, 1}, {"uint8", DataType::kU8, 1},
                                  {"int32", DataType::kI32, 4}, {"uint32", DataType::kU32, 4},
                                  {"int64", DataType::kI64, 8}, {"uint64", DataType::kU64, 8},
                                  {"half", DataType::kF16, 2}, {"float", DataType::kF32, 4},
                                  {"double", DataType::kF64, 8}, {"bfloat16", DataType::kBF16, 2},
                                  {"f8e4m3", DataType::kF8E4M3, 1}, {"f8e5m2", DataType::kF8E5M2, 1}}) {
    CHECK(parse_dtype(name) == type);
    CHECK(dtype_name(type) == name);
    CHECK(dtype_size(type) == static_cast<size_t>(size));
  }
  CHECK(all_dtypes().size() == kDataTypeCount);
  CHECK(is_signed(DataType::kI8));
  CHECK_FALSE(is_signed(DataType::kU64));
  CHECK(parse_op("avg") == ReduceOp::kAvg);
  CHECK_THROWS_WITH(parse_dtype("float8"), Catch::Contains("unknown data type"));
  CHECK_THROWS_WITH(parse_op("xor"), Catch::Contains("unknown reduce op"));
  try {
    parse_op("xor");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
  }
}

TEST_CASE("errors carry rank, peer, transport, device and errno", "[error]") {
  Error e(ErrorKind::kPeerLost, "gone", ErrorContext{3, 5, "tcp", "ring allreduce", 104, "eth0 10.0.0.3"});
  CHECK(std::string(e.what()) == "rank 3 peer 5 [tcp] on eth0 10.0.0.3 during ring allreduce: gone (Connection reset by peer)");
  Error bare(ErrorKind::kSystem, "odd", ErrorContext{-1, -1, "", "", 0, ""});
  CHECK(std::string(bare.what()) == "odd");
}
