// One line per failure on stderr, and the exit status it maps to:
// 2 for bad input (flags, sizes, environment), 1 for everything else.
#pragma once
#include <exception>

namespace ccb::cli {

int report_error(const std::exception& e);

}  // namespace ccb::cli
