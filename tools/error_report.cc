#include "error_report.h"


#include "core/error.h"

namespace ccb::cli {

int report_error(const std::exception& e) {
  print_line_to_stderr(std::string("error: ") + e.what());
  const auto* err = dynamic_cast<const Error*>(&e);
  return err && err->kind() == ErrorKind::kInvalidArgument ? 2 : 1;
}

}  // namespace ccb::cli
