// A rank that dies or stalls mid-collective: the others must stop, non-zero, within
// the timeout, naming the rank; the job never hangs.
#include <signal.h>

#include <catch2/catch.hpp>

#include "process_util.h"

using namespace ccb::test;


TEST_CASE("a rank killed mid-collective: the others fail fast, naming it", "[fault]") {
  ProcessResult r = run_and_signal(SIGKILL, "kill" + std::to_string(getpid()), 20);
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Catch::Contains("rank 1 was killed by signal"));
  CHECK_THAT(r.output, Catch::Contains("connection to rank 1 lost") || Catch::Contains("rank 1 left the job"));
  CHECK(r.seconds < 60);
}

TEST_CASE("a stalled rank: the others time out, naming the peer they wait for", "[fault]") {
  ProcessResult r = run_and_signal(SIGSTOP, "stop" + std::to_string(getpid()), 3);
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Catch::Contains("rank 1") && Catch::Contains("did not complete within 3"));
}
