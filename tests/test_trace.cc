// The collective trace parser: what it accepts, and the line it names when it cannot.
#include <catch2/catch.hpp>
#include <sstream>

#include "core/error.h"
#include "profiles/trace.h"

using namespace ccb;

namespace {

std::vector<TraceCall> parse(const std::string& text) {
  std::istringstream in(text);
  return parse_trace(in, "t.jsonl");
}

}  // namespace

TEST_CASE("a trace: one call per line, comments and blank lines skipped, extra fields ignored", "[trace]") {
  auto calls = parse(
      "# step 1\n"
      "{\"op\": \"allreduce\", \"bytes\": 26214400, \"dtype\": \"float\", \"ts\": 12.5}\n"
      "\n"
      "{\"op\": \"all_gather\", \"bytes\": \"64M\", \"dtype\": \"bf16\"}\r\n"
      "{\"op\": \"reducescatter\", \"bytes\": 8, \"dtype\": \"uint8\"}\n");
  REQUIRE(calls.size() == 3);
  CHECK((calls[0].op == CollectiveKind::kAllreduce && calls[0].bytes == 26214400 && calls[0].dtype == DataType::kF32));
  CHECK((calls[1].op == CollectiveKind::kAllGather && calls[1].bytes == 64ull << 20 && calls[1].dtype == DataType::kBF16));
  CHECK((calls[2].op == CollectiveKind::kReduceScatter && calls[2].dtype == DataType::kU8));
}

TEST_CASE("malformed trace lines give the file, the line number and the fix", "[trace]") {
  const std::string good = "{\"op\": \"allreduce\", \"bytes\": 64, \"dtype\": \"float\"}\n";
  CHECK_THROWS_WITH(parse(good + good + "{\"op\": \"allreduce\", \"bytes\": 64,\n"),
                    Catch::StartsWith("t.jsonl:3: not a JSON object"));
  CHECK_THROWS_WITH(parse("{\"op\": \"allreduce\", \"dtype\": \"float\"}\n"),
                    Catch::Equals("t.jsonl:1: missing field 'bytes'"));
  CHECK_THROWS_WITH(parse("{\"op\": \"hypercube\", \"bytes\": 64, \"dtype\": \"float\"}\n"),
                    Catch::Contains("t.jsonl:1: unknown collective 'hypercube': use allreduce"));
  CHECK_THROWS_WITH(parse("{\"op\": \"allreduce\", \"bytes\": 64, \"dtype\": \"fp8\"}\n"),
                    Catch::Contains("t.jsonl:1:") && Catch::Contains("fp8"));
  CHECK_THROWS_WITH(parse("{\"op\": \"allreduce\", \"bytes\": -64, \"dtype\": \"float\"}\n"),
                    Catch::Contains("'bytes' must be a positive integer"));
  CHECK_THROWS_WITH(parse("{\"op\": \"allreduce\", \"bytes\": 0, \"dtype\": \"float\"}\n"),
                    Catch::Contains("'bytes' must be positive"));
  CHECK_THROWS_WITH(parse("{\"op\": \"allreduce\", \"bytes\": 6, \"dtype\": \"float\"}\n"),
                    Catch::Contains("not a whole number of float elements"));
  CHECK_THROWS_WITH(parse("{\"op\": 3, \"bytes\": 8, \"dtype\": \"float\"}\n"), Catch::Contains("must be strings"));
  CHECK_THROWS_WITH(parse("[1, 2]\n"), Catch::Contains("t.jsonl:1: not a JSON object"));
  // Found by fuzz_text_inputs: a number JSON cannot hold is a parse error, not a crash.
  CHECK_THROWS_WITH(parse("{\"op\": \"allreduce\", \"bytes\": 2621E4400, \"dtype\": \"bf16\"}\n"),
                    Catch::Contains("t.jsonl:1: not a JSON object"));
  CHECK_THROWS_WITH(parse("# only a comment\n\n"), Catch::Contains("holds no collective calls"));
  CHECK_THROWS_WITH(load_trace("/nonexistent/t.jsonl"), Catch::Contains("cannot read --trace"));
}
