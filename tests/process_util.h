// Running programs from the tests: capture output and exit status, with a time limit.
#pragma once
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace ccb::test {

struct ProcessResult {
  int status = -1;       // exit status, or 128 + signal
  std::string output;    // stdout and stderr together
  double seconds = 0;
};

// Runs argv with extra environment; kills it (and reports status 137) after `limit`.
ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {},
                          std::chrono::seconds limit = std::chrono::seconds(120));

}  // namespace ccb::test
