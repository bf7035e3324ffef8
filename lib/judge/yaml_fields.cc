#include "judge/yaml_fields.h"

#include "core/error.h"
#include "core/units.h"

namespace ccb::judge {

void refuse(const std::string& source, const YAML::Mark& at, const std::string& field, const std::string& why) {
  throw_invalid(source + ":" + std::to_string(at.line + 1) + ":" + std::to_string(at.column + 1) + ": " + field + ": " + why);
}

std::string text_of(const std::string& source, const YAML::Node& n, const std::string& field) {
  if (!n.IsScalar()) refuse(source, n.Mark(), field, "expected a plain value here, not a list or map");
  return n.Scalar();
}

uint64_t size_of(const std::string& source, const YAML::Node& n, const std::string& field) {
  const std::string text = text_of(source, n, field);
  try {
    return parse_bytes(text);
  } catch (const std::exception& e) {
    refuse(source, n.Mark(), field, e.what());
  }
}

}  // namespace ccb::judge
