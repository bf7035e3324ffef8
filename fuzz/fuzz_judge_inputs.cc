// libFuzzer target: what judging reads from files it did not write, parsed from
// arbitrary bytes: result files (ccbench's schemas and Google Benchmark JSON, NaN and
// all) and rule files (YAML). A result read is then compared with itself and judged by
// every rule read. Anything but a verdict or a ccb::Error is a bug.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"
#include "judge/compare.h"
#include "judge/result_file.h"
#include "judge/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<ccb::judge::ResultFile> result;
  try {
    result = ccb::judge::parse_result_text(text, "fuzz.json", true);
    ccb::judge::compare(*result, *result, {});
  } catch (const ccb::Error&) {
  }
  try {
    auto rules = ccb::judge::parse_rules(text, "fuzz.yaml");
    if (result) ccb::judge::check_rules(rules, *result, &*result);
  } catch (const ccb::Error&) {
  }
  return 0;
}
