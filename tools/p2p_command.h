// `ccbench p2p`: perftest's point-to-point tests over any transport. A test is a
// point-to-point collective of the registry (algo/point_to_point.cc) run as `ccbench
// run` runs a sweep, so it starts, checks its input, fails and writes its records as
// `run` does, and compare, rules and reports read them.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "run_command.h"

namespace ccb::cli {

struct P2pTest {
  std::string name = "bw";  // bw, bidir or lat
  bool forever = false;     // --forever: a soak until SIGINT (perftest's --run_infinitely)
};

void add_p2p_options(CLI::App& p2p, RunCommand& c, P2pTest& test);
// The collective, and what `ccbench run` defaults differently: 2 ranks, bytes (uint8)
// so that any size is whole, and perftest-like sizes for the test.
void apply_p2p_test(const CLI::App& p2p, const P2pTest& test, RunCommand& c);

}  // namespace ccb::cli
