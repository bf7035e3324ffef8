// The columns of a point-to-point test's table, as perftest prints them: bandwidth in
// Gbit/s and GB/s with the message rate, or one-way latency (half the round trip,
// perftest's convention) as min, median, mean, stdev, p99 and p99.9.
#pragma once
#include <string>

#include "runner/collective_runner.h"

namespace ccb {

std::string bandwidth_header();
std::string bandwidth_row(const SizeResult& r, const RunOptions& o);
std::string latency_header();
std::string latency_row(const SizeResult& r);

}  // namespace ccb
