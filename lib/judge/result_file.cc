#include "judge/result_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/files.h"
#include "judge/statistics.h"

namespace ccb::judge {
namespace {

using nlohmann::json;

std::optional<double> number_or_null(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}

std::string key_of(const Measured& m) {
  std::ostringstream s;
  if (!m.profile.empty()) s << m.profile << "[" << m.step_algorithm << "]" << (m.what.empty() ? "" : " " + m.what) << ": ";
  s << m.collective << " " << m.algorithm << " " << m.transport;
  if (!m.variant.empty()) s << " " << m.variant;
  s << " " << m.dtype << " " << m.op << " " << m.ranks
    << " ranks " << m.bytes << " B" << (m.in_place ? " in-place" : "");
  return s.str();
}

void add_pass(Measured& m, const json& p) {
  m.busbw_gbps.push_back(p.at("busbw_gbps").get<double>());
  m.time_us.push_back(p.at("time_us").get<double>());
  m.p50_us.push_back(p.at("latency_us").at("p50").get<double>());
  m.p99_us.push_back(p.at("latency_us").at("p99").get<double>());
  if (p.contains("samples_us") && m.samples_us.empty()) m.samples_us = p.at("samples_us").get<std::vector<double>>();
}

// A record's top-level figures are its median pass's; an edit, or another tool, that
// changes one and not the passes would otherwise be judged silently by the passes.
void check_top_level(const json& r, const Measured& m, ResultFile& f) {
  const std::optional<double> top = number_or_null(r, "busbw_gbps");
  if (!top || m.busbw_gbps.empty()) return;
  const double median = summarize_median(m.busbw_gbps).median;
  if (std::abs(*top - median) <= 1e-9 * std::max(1.0, std::abs(median))) return;
  char line[160];
  std::snprintf(line, sizeof line, "its top-level busbw_gbps %.6g is not the median of its passes, %.6g", *top, median);
  f.warnings.push_back(f.path + ": " + m.key + ": " + line + "; the passes are judged (was the file edited?)");
}

std::optional<HierLegs> legs_of(const json& r) {
  if (!r.contains("legs_us")) return std::nullopt;
  const json& l = r.at("legs_us");
  return HierLegs{l.at("intra_before").get<double>(), l.at("inter").get<double>(), l.at("intra_after").get<double>(),
                  l.value("inter_algo", ""), l.value("intra_algo", ""), l.value("intra_transport", "")};
}

void read_layout(const json& job, ResultFile& f) {
  if (!job.contains("layout")) return;  // before schema 2 kept it
  const json& l = job.at("layout");
  f.hosts = static_cast<int>(l.at("hosts").size());
  f.ranks_per_host = l.at("ranks_per_host").is_null() ? 0 : l.at("ranks_per_host").get<int>();
}

void read_ccbench(const json& root, ResultFile& f) {
  const json& job = root.at("job");
  f.raw_job = job.dump();
  f.complete = root.at("complete").get<bool>();
  f.started_utc = job.value("started_utc", "");
  const json& machine = job.at("machine");
  f.host = machine.value("host", "");
  f.machine = machine.value("cpu", "") + " x" + std::to_string(machine.value("cpus", 0));
  const std::string transport = job.at("transport").at("name").get<std::string>();
  f.transport_settings = comparable_settings(job.at("transport").value("settings", ""));
  f.memory = job.value("memory", "host");
  f.line_rate_gbps = number_or_null(job, "line_rate_gbps");
  const int ranks = job.at("ranks").get<int>();
  f.transport = transport;
  f.ranks = ranks;
  read_layout(job, f);
  for (const json& r : root.at("results")) {
    Measured m;
    m.collective = r.at("collective").get<std::string>();
    m.algorithm = r.at("algorithm").get<std::string>();
    m.dtype = r.at("dtype").get<std::string>();
    m.op = r.at("op").get<std::string>();
    m.in_place = r.value("in_place", false);
    m.chosen_by_auto = r.value("chosen_by", "") == "auto";
    m.bytes = r.at("bytes").get<uint64_t>();
    m.transport = transport;
    m.ranks = ranks;
    m.profile = r.value("profile", "");
    if (!m.profile.empty()) m.step_algorithm = r.value("step_algorithm", m.algorithm);
    m.what = r.value("what", "");
    m.variant = r.value("variant", "");
    m.wrong = r.value("wrong", uint64_t{0});
    m.line_rate_gbps = number_or_null(r, "line_rate_gbps");
    m.link_util_pct = number_or_null(r, "link_util_pct");
    if (r.contains("passes")) {
      for (const json& p : r.at("passes")) add_pass(m, p);
      m.key = key_of(m);
      check_top_level(r, m, f);
    } else
      add_pass(m, r);  // schema 1: one pass, at the top
    m.count_per_step = r.value("count_per_step", uint64_t{0});
    m.legs = legs_of(r);
    m.key = key_of(m);
    f.results.push_back(std::move(m));
  }
  if (root.contains("steps"))
    for (const json& j : root.at("steps")) {
      MeasuredStep s{j.value("kind", ""), j.value("name", ""), j.value("summary", ""), j.value("algorithm", ""), {},
                     j.value("calls", uint64_t{0}), j.value("bytes", uint64_t{0})};
      if (j.contains("passes_us")) s.comm_us = j.at("passes_us").get<std::vector<double>>();
      else s.comm_us.push_back(j.at("comm_us").get<double>());
      f.steps.push_back(std::move(s));
    }
}

// bench_collectives: "allreduce/ring/tcp/67108864", or "<profile>/allreduce/ring/tcp/<bytes>";
// each repetition of a benchmark (--benchmark_repetitions) is a pass.
void read_google_benchmark(const json& root, ResultFile& f) {
  const json& ctx = root.at("context");
  f.machine = ctx.value("ccbench_cpu", "") + " x" + std::to_string(ctx.value("num_cpus", 0));
  f.host = ctx.value("host_name", "");
  f.started_utc = ctx.value("date", "");
  f.transport_settings = comparable_settings(ctx.value("ccbench_transport", ""));
  const int ranks = std::stoi(ctx.value("ccbench_ranks", "0"));
  const std::string dtype = ctx.value("ccbench_dtype", "float");
  if (const double rate = std::stod(ctx.value("ccbench_line_rate_gbps", "0")); rate > 0) f.line_rate_gbps = rate;
  for (const json& b : root.at("benchmarks")) {
    if (b.value("run_type", "iteration") != "iteration" || b.value("error_occurred", false)) continue;
    std::vector<std::string> parts;
    std::stringstream name(b.at("name").get<std::string>());
    for (std::string p; std::getline(name, p, '/');)  // not "iterations:20" or "manual_time"
      if (p.find(':') == std::string::npos && !p.ends_with("_time")) parts.push_back(p);
    if (parts.size() < 4 || parts[parts.size() - 3] == "step") continue;  // a step is a sum, not a measurement
    Measured m;
    const size_t n = parts.size();
    if (n >= 5) m.profile = parts[0], m.step_algorithm = parts[n - 3];
    m.collective = parts[n - 4], m.algorithm = parts[n - 3], m.transport = parts[n - 2];
    m.bytes = std::stoull(parts[n - 1].substr(0, parts[n - 1].find_first_not_of("0123456789")));
    m.dtype = dtype;
    m.op = m.collective == "all_gather" ? "none" : "sum";
    m.ranks = ranks;
    m.key = key_of(m);
    auto it = std::find_if(f.results.begin(), f.results.end(), [&](const Measured& x) { return x.key == m.key; });
    Measured& into = it == f.results.end() ? f.results.emplace_back(std::move(m)) : *it;
    into.busbw_gbps.push_back(b.at("busbw_GBps").get<double>());
    into.time_us.push_back(b.at("real_time").get<double>());
    into.p50_us.push_back(b.at("p50_us").get<double>());
    into.p99_us.push_back(b.at("p99_us").get<double>());
    into.wrong += static_cast<uint64_t>(b.value("wrong", 0.0));
  }
}

// Google Benchmark writes a bare NaN (the cv of a counter that is always 0) or Infinity,
// which JSON does not have (Python's json module accepts them): outside strings they
// become null.
std::string without_bare_nan(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    for (std::string_view token : {"-Infinity", "Infinity", "-NaN", "NaN", "-nan", "nan", "-inf", "inf"})
      if (text.compare(i, token.size(), token) == 0) {
        out += "null";
        i += token.size() - 1;
        replaced = true;
        break;
      }
    if (!replaced) out += c;
  }
  return out;
}

[[noreturn]] void throw_incomplete(const std::string& path) {
  throw_invalid(path + " holds an incomplete run (\"complete\": false): it died or is still running; "
                       "--allow-incomplete judges the sizes it holds");
}

}  // namespace

double MeasuredStep::median_us() const {
  return comm_us.empty() ? 0 : summarize_median(comm_us).median;
}

std::string comparable_settings(const std::string& settings) {
  std::istringstream in(settings);
  std::string out;
  for (std::string token; in >> token;) {
    if (token.starts_with("addr=") || token.starts_with("iface=")) continue;
    if (token.starts_with("gid[")) token = token.substr(0, token.find('=') + 1);  // keep the index, not the address
    out += (out.empty() ? "" : " ") + token;
  }
  return out;
}

ResultFile read_result_file(const std::string& path, bool allow_incomplete) {
  return parse_result_text(read_regular_file(path, kMaxResultFileBytes, "result file"), path, allow_incomplete);
}

ResultFile parse_result_text(const std::string& text, const std::string& path, bool allow_incomplete) {
  json root;
  try {
    root = json::parse(without_bare_nan(text));
  } catch (const json::exception& e) {  // parse errors say where ("at line 3, column 5"); and numbers out of range (406)
    throw_invalid(path + " is not a complete JSON result (" + e.what() + "): was the run cut short?");
  }
  ResultFile f;
  f.path = path;
  try {
    if (root.is_object() && root.contains("schema")) {
      f.schema = root.at("schema").get<std::string>();
      if (f.schema != "ccbench.result/1" && f.schema != "ccbench.result/2")
        throw_invalid(path + ": unknown schema '" + f.schema +
                      "': this ccbench reads ccbench.result/1 and /2 and Google Benchmark JSON; use the ccbench that wrote it");
      if (!root.value("complete", false) && !allow_incomplete) throw_incomplete(path);
      read_ccbench(root, f);
    } else if (root.is_object() && root.contains("benchmarks") && root.contains("context")) {
      f.schema = "google-benchmark";
      read_google_benchmark(root, f);
    } else {
      throw_invalid(path + " is JSON but not a result: neither a \"schema\" of ccbench's nor Google Benchmark's "
                           "\"context\" and \"benchmarks\"");
    }
  } catch (const nlohmann::json::exception& e) {
    throw_invalid(path + ": a field is missing or of the wrong type (" + e.what() + ")");
  } catch (const std::logic_error& e) {  // std::stoi and friends on a malformed name
    throw_invalid(path + ": a benchmark name or count does not parse (" + e.what() + ")");
  }
  return f;
}

}  // namespace ccb::judge
