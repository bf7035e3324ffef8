// The collective correctness matrix as real multi-process jobs over loopback TCP:
// world sizes {1,2,3,4,5,8}, counts {0,1,7,1023,1048579}, every type, sum and max,
// ring and tree, in place and out of place (see collective_worker.cc for the checks).
#include <catch2/catch.hpp>

#include "process_util.h"

using namespace ccb::test;

namespace {

void run_matrix(int world, const std::string& chunk_bytes, const std::string& mode = "full", const std::string& slots = "4") {
  ProcessResult r = run_process({CCB_CCBENCH, "launch", "--np", std::to_string(world), "--", CCB_WORKER, chunk_bytes, mode, slots},
                                {}, std::chrono::seconds(600));
  INFO(r.output);
  REQUIRE(r.status == 0);
  REQUIRE_THAT(r.output, Catch::Contains("rank 0: ") && Catch::Contains(" 0 failed"));
}

}  // namespace

TEST_CASE("collectives match the serial reference, 1 rank", "[collective]") { run_matrix(1, "65536"); }
TEST_CASE("collectives match the serial reference, 2 ranks", "[collective]") { run_matrix(2, "65536"); }
TEST_CASE("collectives match the serial reference, 3 ranks", "[collective]") { run_matrix(3, "65536"); }
TEST_CASE("collectives match the serial reference, 4 ranks", "[collective]") { run_matrix(4, "65536"); }
TEST_CASE("collectives match the serial reference, 5 ranks", "[collective]") { run_matrix(5, "65536"); }
TEST_CASE("collectives match the serial reference, 8 ranks", "[collective]") { run_matrix(8, "65536"); }
TEST_CASE("collectives with tiny chunks and deep pipelines, 3 ranks", "[collective]") { run_matrix(3, "4096"); }
TEST_CASE("collectives with one slot (the narrowest send window), 4 ranks", "[collective]") {
  run_matrix(4, "4096", "quick", "1");
  run_matrix(4, "65536", "full", "1");
}
TEST_CASE("collectives at scale: 16 and 64 ranks, counts around the world size", "[collective]") {
  run_matrix(16, "65536", "quick");
  run_matrix(64, "65536", "quick");
}
TEST_CASE("hier matches the serial reference: hosts of 2, 3 and 4 ranks, and of 1", "[collective][hier]") {
  run_matrix(4, "65536", "hier:2");
  run_matrix(6, "65536", "hier:3");
  run_matrix(6, "4096", "hier:2");
  run_matrix(8, "65536", "hier:4");
  run_matrix(3, "65536", "hier:1");
}
