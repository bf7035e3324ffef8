#include "profiles/trace.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "algo/collectives.h"
#include "core/error.h"
#include "core/files.h"
#include "core/units.h"

namespace ccb {

using nlohmann::json;

static CollectiveKind trace_op(const std::string& s) {
  const CollectiveDescriptor& d = find_collective(s);
  if (d.uneven) throw_invalid("a trace cannot give " + std::string(d.name) + "'s splits: use all_to_all, or ccbench run --splits");
  return d.kind;
}

static uint64_t trace_bytes(const json& v) {
  uint64_t b = 0;
  if (v.is_number_unsigned()) b = v.get<uint64_t>();
  else if (v.is_string()) b = parse_bytes(v.get<std::string>());
  else throw_invalid("'bytes' must be a positive integer or a size like \"25M\", not " + v.dump());
  if (b == 0) throw_invalid("'bytes' must be positive");
  return b;
}

static const json& field(const json& j, const char* key) {
  if (!j.contains(key)) throw_invalid(std::string("missing field '") + key + "'");
  return j.at(key);
}

static TraceCall parse_line(const std::string& line) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception&) {  // parse errors, and numbers out of range (406)
    throw_invalid("not a JSON object; each line is {\"op\": \"allreduce\", \"bytes\": 1048576, \"dtype\": \"bf16\"}");
  }
  if (!j.is_object()) throw_invalid("not a JSON object");
  const json& op = field(j, "op");
  const json& dtype = field(j, "dtype");
  if (!op.is_string() || !dtype.is_string()) throw_invalid("'op' and 'dtype' must be strings");
  TraceCall c{trace_op(op.get<std::string>()), trace_bytes(field(j, "bytes")), parse_dtype(dtype.get<std::string>())};
  if (c.bytes % dtype_size(c.dtype) != 0)
    throw_invalid(std::to_string(c.bytes) + " bytes is not a whole number of " + std::string(dtype_name(c.dtype)) + " elements");
  return c;
}

std::vector<TraceCall> parse_trace(std::istream& in, const std::string& source) {
  std::vector<TraceCall> calls;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    try {
      calls.push_back(parse_line(line));
    } catch (const Error& e) {
      throw_invalid(source + ":" + std::to_string(number) + ": " + e.message());
    }
  }
  if (calls.empty()) throw_invalid(source + " holds no collective calls: one JSON object per line");
  return calls;
}

std::vector<TraceCall> load_trace(const std::string& path) {
  std::istringstream in(read_regular_file(path, kMaxTraceFileBytes, "--trace"));
  return parse_trace(in, path);
}

}  // namespace ccb
