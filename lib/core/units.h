// Byte sizes as people write them: 8, 64K, 25M, 1G (binary multiples, as nccl-tests).
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ccb {

uint64_t parse_bytes(std::string_view s);                      // throws kInvalidArgument
std::vector<uint64_t> parse_byte_list(std::string_view csv);   // "1M,25M,64M"
std::string format_bytes(uint64_t bytes);                      // "25 MiB", "8 B"
std::string short_bytes(uint64_t bytes);                       // "25M", "8": as flags take it
// "100G", "2.5G", "400M", "25000000000": bits per second, returned in Gbit/s.
double parse_line_rate(std::string_view s, std::string_view flag = "--line-rate");  // throws kInvalidArgument naming flag
// The number at the start of `text` (std::stod's syntax) and the characters it took;
// none taken when there is none (never throws).
struct LeadingNumber {
  double value = 0;
  size_t used = 0;
};
LeadingNumber leading_number(const std::string& text);

// A run length as --duration takes it: 90, 90s, 30m, 8h, 2d; at most 30 days. Throws
// kInvalidArgument naming `flag` and the form.
double parse_duration_s(std::string_view s, std::string_view flag);
std::string format_duration(double seconds);
// A latency as the cost model takes it: 2us, 1.5ms, 800ns (no unit: us); finite, >= 0,
// at most 10 s. Throws kInvalidArgument naming `flag`.
double parse_latency_us(std::string_view s, std::string_view flag);                   // "08:00:00", "1d 02:03:04"

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace ccb
