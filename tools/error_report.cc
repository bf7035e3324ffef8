#include "error_report.h"

#include <iostream>

#include "core/error.h"

namespace ccb::cli {

int report_error(const std::exception& e) {
  std::cerr << "ccbench: error: " << e.what() << std::endl;
  const auto* err = dynamic_cast<const Error*>(&e);
  return err && err->kind() == ErrorKind::kInvalidArgument ? 2 : 1;
}

}  // namespace ccb::cli
