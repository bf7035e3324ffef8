// Flags of the measuring commands (CLI11, header only). Every number from a flag
// is hostile until checked: CLI11's Range lets nan through (every comparison with nan
// is false), and inf or 1e300 seconds are typing mistakes.
#pragma once
#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

namespace ccb {

inline CLI::Validator finite_in(double lo, double hi) {
  const std::string range = "[" + CLI::detail::to_string(lo) + ", " + CLI::detail::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !std::isfinite(v) || v < lo || v > hi)
          return "'" + text + "' is not a finite number in " + range;
        return {};
      },
      "NUMBER in " + range);
}

// A flag error as one line, like every other error: "<program>: error: ... (see --help)".
inline void one_line_errors(CLI::App& app, const std::string& program) {
  app.failure_message([program](const CLI::App*, const CLI::Error& e) {
    return program + ": error: " + std::string(e.what()) + " (see --help)\n";
  });
}

// Seconds before a silent peer is declared gone.
inline CLI::Validator timeout_seconds() { return finite_in(0.001, 86400); }

}  // namespace ccb
