// Reading fields of the YAML files ccbench takes (rules, qualify specs) so that every
// error says where: "<file>:<line>:<column>: <field>: <what is wrong and the fix>".
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>

namespace ccb::judge {

[[noreturn]] void refuse(const std::string& source, const YAML::Mark& at, const std::string& field, const std::string& why);
// A scalar's text; anything else (a list or map where text belongs) is refused.
std::string text_of(const std::string& source, const YAML::Node& n, const std::string& field);
// A size as flags take it ("1M").
uint64_t size_of(const std::string& source, const YAML::Node& n, const std::string& field);

}  // namespace ccb::judge
