#include "judge/rules.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "judge/statistics.h"
#include "judge/yaml_fields.h"

namespace ccb::judge {
namespace {

constexpr uint64_t kMaxRulesFileBytes = 1 << 20;

struct MetricName {
  const char* name;
  Metric metric;
};
constexpr MetricName kMetrics[] = {{"busbw_GBps", Metric::kBusbw}, {"algbw_GBps", Metric::kAlgbw},
                                   {"time_us", Metric::kTime},     {"p50_us", Metric::kP50},
                                   {"p99_us", Metric::kP99},       {"link_util_pct", Metric::kLinkUtil},
                                   {"wrong", Metric::kWrong}};
constexpr MetricName kChangeMetrics[] = {{"busbw", Metric::kBusbw}, {"time", Metric::kTime},
                                         {"p50", Metric::kP50},     {"p99", Metric::kP99}};
const char* kMetricHelp =
    "use busbw_GBps, algbw_GBps, time_us, p50_us, p99_us, link_util_pct or wrong with >= <= > < == and a number; "
    "'busbw change >= -5%' (also time, p50, p99) against --baseline; or 'present'";

Bound parse_bound(const std::string& text) {
  Bound b;
  b.text = text;
  if (std::regex_match(text, std::regex(R"(\s*present\s*)"))) return b;
  static const std::regex form(R"(\s*([A-Za-z0-9_]+)(\s+change)?\s*(>=|<=|==|>|<)\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(%?)\s*)");
  std::smatch m;
  if (!std::regex_match(text, m, form)) throw_invalid("'" + text + "' is not a bound: " + kMetricHelp);
  b.change = m[2].matched;
  const std::string name = m[1];
  bool known = false;
  for (const MetricName& k : b.change ? std::vector<MetricName>(std::begin(kChangeMetrics), std::end(kChangeMetrics))
                                      : std::vector<MetricName>(std::begin(kMetrics), std::end(kMetrics)))
    if (name == k.name) b.metric = k.metric, known = true;
  if (!known) throw_invalid("unknown metric '" + name + (b.change ? " change" : "") + "': " + kMetricHelp);
  const std::string op = m[3];
  b.op = op == ">=" ? Compare::kGe : op == "<=" ? Compare::kLe : op == ">" ? Compare::kGt : op == "<" ? Compare::kLt : Compare::kEq;
  b.value = std::stod(m[4]);
  if (!std::isfinite(b.value)) throw_invalid("'" + text + "': the number is not finite");
  if (b.change != (m[5] == "%")) throw_invalid("'" + text + "': a change is in percent ('busbw change >= -5%'), and only a change is");
  return b;
}

Selector parse_selector(const std::string& source, const YAML::Node& n) {
  Selector s;
  if (!n.IsMap()) refuse(source, n.Mark(), "select", "a map such as {collective: allreduce, min_bytes: 1M}");
  for (const auto& kv : n) {
    const std::string key = text_of(source, kv.first, "select");
    const YAML::Node& v = kv.second;
    std::string* text = key == "collective" ? &s.collective : key == "algorithm" ? &s.algorithm
                        : key == "transport" ? &s.transport : key == "dtype" ? &s.dtype : key == "op" ? &s.op
                        : key == "profile" ? &s.profile : nullptr;
    if (text && v.IsScalar()) *text = v.Scalar();
    else if (key == "min_bytes" && v.IsScalar()) s.min_bytes = size_of(source, v, "select.min_bytes");
    else if (key == "max_bytes" && v.IsScalar()) s.max_bytes = size_of(source, v, "select.max_bytes");
    else if (key == "sizes" && v.IsSequence())
      for (const auto& size : v) s.sizes.push_back(size_of(source, size, "select.sizes"));
    else
      refuse(source, kv.first.Mark(), "select." + key,
             "unknown selector or wrong form: use collective, algorithm, transport, dtype, op, profile (text), "
             "min_bytes, max_bytes (a size) or sizes (a list)");
  }
  return s;
}

Rule parse_rule(const std::string& source, const YAML::Node& n, size_t index) {
  if (!n.IsMap()) refuse(source, n.Mark(), "rules[" + std::to_string(index) + "]", "a rule is a map with name, select and require");
  Rule r;
  r.line = n.Mark().line + 1;
  r.name = "rule " + std::to_string(index + 1);
  for (const auto& kv : n) {
    const std::string key = text_of(source, kv.first, "rule");
    if (key == "name" && kv.second.IsScalar()) r.name = kv.second.Scalar();
    else if (key == "select") r.select = parse_selector(source, kv.second);
    else if (key != "require") refuse(source, kv.first.Mark(), key, "unknown field of a rule: use name, select and require");
  }
  const YAML::Node require = n["require"];
  if (!require || !require.IsScalar()) refuse(source, n.Mark(), "require", "each rule needs one, e.g. 'require: busbw_GBps >= 9.5'");
  try {
    r.bound = parse_bound(require.Scalar());
  } catch (const Error& e) {
    refuse(source, require.Mark(), "require", e.message());
  }
  return r;
}

double median_of(const std::vector<double>& v) { return v.empty() ? std::nan("") : summarize_median(v).median; }

// The metric of one result; nullopt when it cannot be had (no line rate).
std::optional<double> value_of(Metric metric, const Measured& m, const ResultFile& f) {
  switch (metric) {
    case Metric::kBusbw: return median_of(m.busbw_gbps);
    case Metric::kAlgbw: return median_of(m.time_us) > 0 ? static_cast<double>(m.bytes) / median_of(m.time_us) / 1e3 : 0;
    case Metric::kTime: return median_of(m.time_us);
    case Metric::kP50: return median_of(m.p50_us);
    case Metric::kP99: return median_of(m.p99_us);
    case Metric::kWrong: return static_cast<double>(m.wrong);
    case Metric::kLinkUtil: {
      const std::optional<double> rate = m.line_rate_gbps ? m.line_rate_gbps : f.line_rate_gbps;
      if (!rate || *rate <= 0) return std::nullopt;
      return median_of(m.busbw_gbps) * 8 / *rate * 100;
    }
    case Metric::kPresent: return std::nullopt;
  }
  return std::nullopt;
}

bool holds(Compare op, double v, double bound) {
  switch (op) {
    case Compare::kGe: return v >= bound;
    case Compare::kLe: return v <= bound;
    case Compare::kGt: return v > bound;
    case Compare::kLt: return v < bound;
    case Compare::kEq: return v == bound;
  }
  return false;
}

std::string shown(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

void judge_present(const Rule& r, const ResultFile& result, RuleReport& out) {
  std::vector<uint64_t> sizes = r.select.sizes;
  Selector others = r.select;
  others.sizes.clear();
  auto found = [&](std::optional<uint64_t> size) {
    return std::any_of(result.results.begin(), result.results.end(),
                       [&](const Measured& m) { return others.matches(m) && (!size || m.bytes == *size); });
  };
  if (sizes.empty()) {
    const bool any = found(std::nullopt);
    out.outcomes.push_back({r, "", any, std::nullopt, any ? "present" : "no result matches the selector"});
    return;
  }
  for (uint64_t size : sizes) {
    const bool here = found(size);
    out.outcomes.push_back({r, "size " + format_bytes(size), here, std::nullopt,
                            here ? "present" : "size " + format_bytes(size) + " missing"});
  }
}

RuleOutcome judge_one(const Rule& r, const Measured& m, const ResultFile& result, const ResultFile* baseline) {
  RuleOutcome o{r, m.key, false, std::nullopt, ""};
  std::optional<double> v = value_of(r.bound.metric, m, result);
  if (r.bound.change) {
    auto base = std::find_if(baseline->results.begin(), baseline->results.end(), [&](const Measured& b) { return b.key == m.key; });
    if (base == baseline->results.end()) return o.detail = "not in the baseline " + baseline->path, o;
    std::optional<double> b = value_of(r.bound.metric, *base, *baseline);
    v = v && b && *b > 0 ? std::optional<double>((*v / *b - 1) * 100) : std::nullopt;
  }
  if (!v) return o.detail = "no line rate: give --line-rate N (run, qualify, scan) or line_rate: N in the spec", o;
  o.measured = v;
  o.passed = holds(r.bound.op, *v, r.bound.value);
  o.detail = "measured " + shown(*v) + (r.bound.change ? "%" : "") + "; the rule wants " + r.bound.text;
  return o;
}

std::vector<Rule> parse_rule_list(const YAML::Node& root, const std::string& source, const std::vector<std::string>& other_fields);

}  // namespace

bool Selector::matches(const Measured& m) const {
  auto eq = [](const std::string& want, const std::string& have) { return want.empty() || want == have; };
  return eq(collective, m.collective) && eq(algorithm, m.algorithm) && eq(transport, m.transport) &&
         eq(dtype, m.dtype) && eq(op, m.op) && eq(profile, m.profile) && (!min_bytes || m.bytes >= *min_bytes) &&
         (!max_bytes || m.bytes <= *max_bytes) &&
         (sizes.empty() || std::find(sizes.begin(), sizes.end(), m.bytes) != sizes.end());
}

std::vector<Rule> parse_rules(const std::string& yaml, const std::string& source, const std::vector<std::string>& other_fields) {
  try {
    return parse_rule_list(YAML::Load(yaml), source, other_fields);
  } catch (const YAML::Exception& e) {  // not YAML, or a node of a kind yaml-cpp cannot convert
    refuse(source, e.mark, "YAML", e.msg);
  }
}

namespace {

std::vector<Rule> parse_rule_list(const YAML::Node& root, const std::string& source, const std::vector<std::string>& other_fields) {
  if (!root.IsMap() || !root["rules"] || !root["rules"].IsSequence())
    refuse(source, root.Mark(), "rules", "a rule file is a map whose 'rules:' is a list (see the README's Thresholds)");
  for (const auto& kv : root) {
    const std::string field = text_of(source, kv.first, "field");
    if (field != "rules" && std::find(other_fields.begin(), other_fields.end(), field) == other_fields.end())
      refuse(source, kv.first.Mark(), kv.first.Scalar(), other_fields.empty() ? "unknown field: only 'rules'" : "unknown field");
  }
  std::vector<Rule> rules;
  for (const auto& n : root["rules"]) rules.push_back(parse_rule(source, n, rules.size()));
  if (rules.empty()) refuse(source, root["rules"].Mark(), "rules", "the list is empty");
  return rules;
}

}  // namespace

std::vector<Rule> load_rules(const std::string& path) {
  return parse_rules(read_regular_file(path, kMaxRulesFileBytes, "--rules"), path);
}

size_t RuleReport::failures() const {
  return static_cast<size_t>(std::count_if(outcomes.begin(), outcomes.end(), [](const RuleOutcome& o) { return !o.passed; }));
}

std::vector<std::string> RuleReport::failing_keys() const {
  std::vector<std::string> keys;
  for (const RuleOutcome& o : outcomes)
    if (!o.passed && o.rule.bound.metric != Metric::kPresent && std::find(keys.begin(), keys.end(), o.key) == keys.end())
      keys.push_back(o.key);
  return keys;
}

RuleReport check_rules(const std::vector<Rule>& rules, const ResultFile& result, const ResultFile* baseline) {
  RuleReport report;
  report.result_path = result.path;
  if (baseline) report.baseline_path = baseline->path;
  for (const Rule& r : rules) {
    if (r.bound.change && !baseline)
      throw_invalid("rule '" + r.name + "' (line " + std::to_string(r.line) + ") compares with a baseline: give --baseline FILE");
    if (r.bound.metric == Metric::kPresent) {
      judge_present(r, result, report);
      continue;
    }
    size_t selected = 0;
    for (const Measured& m : result.results)
      if (r.select.matches(m)) ++selected, report.outcomes.push_back(judge_one(r, m, result, baseline));
    if (selected == 0) report.outcomes.push_back({r, "", false, std::nullopt, "no result matches the selector"});
  }
  return report;
}

}  // namespace ccb::judge
