// A JSON file a command under test wrote, parsed.
#pragma once
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace ccb::test {

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

}  // namespace ccb::test
