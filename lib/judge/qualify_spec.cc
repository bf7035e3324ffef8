#include "judge/qualify_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "judge/yaml_fields.h"

namespace ccb::judge {
namespace {

constexpr uint64_t kMaxSpecBytes = 1 << 20;
constexpr uint64_t kMaxBatteryBytes = 1ull << 30;
constexpr size_t kMaxBatteryItems = 1000;

struct KindName {
  const char* name;
  BatteryKind kind;
  std::vector<std::string> fields;  // besides the kind's own
};
const std::vector<KindName>& kinds() {
  static const std::vector<KindName> k{
      {"p2p", BatteryKind::kP2p, {"sizes", "window", "iters"}},
      {"collective", BatteryKind::kCollective, {"algo", "dtype", "sizes", "iters"}},
      {"soak", BatteryKind::kSoak, {"collective", "algo", "dtype", "sizes"}},
      {"scan", BatteryKind::kScan, {}},
      {"manifest", BatteryKind::kManifest, {}},
  };
  return k;
}

std::string number_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

double number_in(const std::string& source, const YAML::Node& n, const std::string& field, double lo, double hi) {
  const std::string text = text_of(source, n, field);
  const auto [v, used] = leading_number(text);
  if (used == 0 || used != text.size() || !std::isfinite(v) || v < lo || v > hi)
    refuse(source, n.Mark(), field, "'" + text + "' must be a number from " + number_text(lo) + " to " + number_text(hi));
  return v;
}

std::vector<uint64_t> sizes_of(const std::string& source, const YAML::Node& n) {
  if (!n.IsSequence() || n.size() == 0) refuse(source, n.Mark(), "sizes", "give a list of sizes, e.g. [1M, 16M]");
  std::vector<uint64_t> out;
  for (const YAML::Node& s : n) {
    const uint64_t b = size_of(source, s, "sizes");
    if (b == 0 || b > kMaxBatteryBytes) refuse(source, s.Mark(), "sizes", "each size must be from 1 B to 1G");
    out.push_back(b);
  }
  return out;
}

// The kind's own value: the test, collective or length it names (a map for scan and
// manifest, holding their settings).
void read_kind_value(const std::string& source, const KindName& k, const YAML::Node& v, BatteryItem& item) {
  if (k.kind == BatteryKind::kP2p) {
    const std::string test = text_of(source, v, "p2p");
    if (test != "bw" && test != "bidir" && test != "lat") refuse(source, v.Mark(), "p2p", "'" + test + "' is not a test: use bw, bidir or lat");
    item.collective = "p2p_" + test;
    item.dtype = "uint8";
    if (test == "lat") item.window = 1;
  } else if (k.kind == BatteryKind::kCollective) {
    item.collective = text_of(source, v, "collective");
  } else if (k.kind == BatteryKind::kSoak) {
    try {
      item.duration_s = parse_duration_s(text_of(source, v, "soak"), "soak");
    } catch (const Error& e) {
      refuse(source, v.Mark(), "soak", e.what());
    }
    item.collective = "allreduce";
  } else {
    if (!v.IsMap()) refuse(source, v.Mark(), k.name, "give a map of settings, or {}");
    for (const auto& kv : v) {
      const std::string f = text_of(source, kv.first, "field");
      if (k.kind == BatteryKind::kScan && f == "bw_frac") item.bw_frac = number_in(source, kv.second, f, 0.01, 1);
      else if (k.kind == BatteryKind::kScan && f == "lat_factor") item.lat_factor = number_in(source, kv.second, f, 1, 1e6);
      else if (k.kind == BatteryKind::kManifest && f == "allow_warnings") item.allow_warnings = kv.second.as<bool>();
      else refuse(source, kv.first.Mark(), f, k.kind == BatteryKind::kScan ? "unknown field: use bw_frac or lat_factor" : "unknown field: use allow_warnings");
    }
  }
}

std::string fields_help(const KindName& k) {
  std::string s;
  for (const std::string& f : k.fields) {
    s += s.empty() ? ": use " : ", ";
    s += f;
  }
  return s;
}

BatteryItem parse_item(const std::string& source, const YAML::Node& n) {
  if (!n.IsMap() || n.size() == 0) refuse(source, n.Mark(), "battery", "each entry is a map such as {p2p: bw, sizes: [1M]}");
  const std::string first = text_of(source, n.begin()->first, "battery");
  auto k = std::find_if(kinds().begin(), kinds().end(), [&](const KindName& x) { return first == x.name; });
  if (k == kinds().end())
    refuse(source, n.begin()->first.Mark(), first, "unknown test: an entry starts with p2p, collective, soak, scan or manifest");
  BatteryItem item;
  item.kind = k->kind;
  item.line = n.Mark().line + 1;
  read_kind_value(source, *k, n.begin()->second, item);
  for (auto it = std::next(n.begin()); it != n.end(); ++it) {
    const std::string f = text_of(source, it->first, "field");
    if (std::find(k->fields.begin(), k->fields.end(), f) == k->fields.end())
      refuse(source, it->first.Mark(), f, "unknown field for " + first + fields_help(*k));
    if (f == "sizes") item.sizes = sizes_of(source, it->second);
    else if (f == "window") item.window = static_cast<int>(number_in(source, it->second, f, 1, 4096));
    else if (f == "iters") item.iters = static_cast<int>(number_in(source, it->second, f, 1, 1e8));
    else if (f == "collective") item.collective = text_of(source, it->second, f);
    else if (f == "algo") item.algo = text_of(source, it->second, f);
    else if (f == "dtype") item.dtype = text_of(source, it->second, f);
  }
  if (item.kind == BatteryKind::kP2p && item.collective == "p2p_lat" && item.window != 1)
    refuse(source, n.Mark(), "window", "a latency test has one message in flight: drop window");
  const bool sized = item.kind == BatteryKind::kP2p || item.kind == BatteryKind::kCollective || item.kind == BatteryKind::kSoak;
  if (sized && item.sizes.empty()) refuse(source, n.Mark(), first, "give its sizes, e.g. sizes: [1M, 16M]");
  return item;
}

}  // namespace

std::string BatteryItem::describe() const {
  std::string s;
  for (uint64_t b : sizes) {
    if (!s.empty()) s += ',';
    s += short_bytes(b);
  }
  switch (kind) {
    case BatteryKind::kP2p: return collective + " " + s + (window > 1 ? " window " + std::to_string(window) : "");
    case BatteryKind::kCollective: return collective + " " + algo + " " + s;
    case BatteryKind::kSoak: return "soak " + format_duration(duration_s) + " " + collective + " " + s;
    case BatteryKind::kScan: return "scan (bw_frac " + number_text(bw_frac) + ", lat_factor " + number_text(lat_factor) + ")";
    case BatteryKind::kManifest: return std::string("manifest") + (allow_warnings ? " (warnings allowed)" : "");
  }
  return "?";
}

QualifySpec parse_qualify_spec(const std::string& yaml, const std::string& source) {
  QualifySpec spec;
  spec.rules = parse_rules(yaml, source, {"name", "transport", "line_rate", "battery"});
  try {
    const YAML::Node root = YAML::Load(yaml);
    if (root["name"]) spec.name = text_of(source, root["name"], "name");
    if (!root["transport"]) refuse(source, root.Mark(), "transport", "a spec names its transport: tcp, ipoib or verbs");
    spec.transport = text_of(source, root["transport"], "transport");
    if (spec.transport != "tcp" && spec.transport != "ipoib" && spec.transport != "verbs")
      refuse(source, root["transport"].Mark(), "transport", "'" + spec.transport + "': use tcp, ipoib or verbs");
    if (root["line_rate"]) spec.line_rate = text_of(source, root["line_rate"], "line_rate");
    const YAML::Node battery = root["battery"];
    if (!battery || !battery.IsSequence() || battery.size() == 0 || battery.size() > kMaxBatteryItems)
      refuse(source, battery ? battery.Mark() : root.Mark(), "battery", "a spec lists its tests under 'battery:' (1 to 1000)");
    for (const YAML::Node& n : battery) spec.battery.push_back(parse_item(source, n));
  } catch (const YAML::Exception& e) {
    refuse(source, e.mark, "YAML", e.msg);
  }
  if (spec.name.empty()) spec.name = source;
  return spec;
}

QualifySpec load_qualify_spec(const std::string& path) {
  return parse_qualify_spec(read_regular_file(path, kMaxSpecBytes, "--spec"), path);
}

}  // namespace ccb::judge
