// The fit file ("ccbench.fit/1"): what `model project` reads, so a projection names the
// fit it came from. Parameters are written in the units people quote (us, GB/s).
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/units.h"
#include "model/fit.h"

namespace ccb::model {
namespace {

using nlohmann::json;

constexpr const char* kFitSchema = "ccbench.fit/1";

double per_byte_from_gbps(double gbps) { return gbps > 0 ? 1e-3 / gbps : 0; }

json segment_json(const FitSegment& s) {
  // A rate whose per-byte cost the fit found to be 0 is written null: no cost measured.
  auto rate = [](double per_byte) { return per_byte > 0 ? json(1e-3 / per_byte) : json(nullptr); };
  return {{"from_message_bytes", s.from_message}, {"to_message_bytes", s.to_message},   {"alpha_us", s.params.alpha_us},
          {"bandwidth_gbps", rate(s.params.beta_us_per_byte)},      {"reduce_gbps", rate(s.params.gamma_us_per_byte)},
          {"r2", s.r2},                   {"worst_error", s.worst_error}, {"worst_bytes", s.worst_bytes}};
}

// A fit file may come from anywhere: a parameter that is not a finite, sensible number
// is refused rather than projected from.
double parameter(const json& j, const char* key, bool positive) {
  const double v = j.at(key).get<double>();
  if (!std::isfinite(v) || v < 0 || (positive && v == 0))
    throw_invalid(std::string(key) + " " + j.at(key).dump() + " must be a finite number" + (positive ? " above 0" : ", 0 or more"));
  return v;
}

FitSegment segment_from(const json& j) {
  FitSegment s;
  s.from_message = j.at("from_message_bytes").get<double>();
  s.to_message = j.at("to_message_bytes").get<double>();
  auto per_byte = [&j](const char* key) {
    return !j.contains(key) || j.at(key).is_null() ? 0.0 : per_byte_from_gbps(parameter(j, key, true));
  };
  s.params = {parameter(j, "alpha_us", false), per_byte("bandwidth_gbps"), per_byte("reduce_gbps")};
  s.r2 = j.value("r2", 0.0);
  s.worst_error = j.value("worst_error", 0.0);
  s.worst_bytes = j.value("worst_bytes", 0.0);
  return s;
}

json group_json(const GroupFit& g) {
  json points = json::array(), segments = json::array();
  for (const FitPoint& p : g.points) points.push_back({{"ranks", p.ranks}, {"bytes", p.bytes}, {"time_us", p.time_us}});
  for (const FitSegment& s : g.segments) segments.push_back(segment_json(s));
  json j = {{"transport", g.key.transport}, {"collective", g.key.collective}, {"algorithm", g.key.algorithm},
            {"ranks", g.key.ranks},         {"ranks_measured", g.ranks_measured}, {"formula", g.formula},
            {"gamma", g.gamma_source},      {"segments", segments},           {"points", points}};
  if (!g.key.leg.empty()) j["leg"] = g.key.leg;
  return j;
}

GroupFit group_from(const json& j) {
  GroupFit g;
  g.key = {j.at("transport").get<std::string>(), j.at("collective").get<std::string>(),
           j.at("algorithm").get<std::string>(), j.at("ranks").get<int>(), j.value("leg", "")};
  if (!g.key.leg.empty() && g.key.leg != kLegWithinHosts && g.key.leg != kLegAcrossHosts)
    throw_invalid("unknown leg '" + g.key.leg + "' (" + kLegWithinHosts + " or " + kLegAcrossHosts + ")");
  if (find_formula(g.key.collective, g.key.algorithm) == nullptr) throw_invalid("no cost model for " + g.key.describe());
  g.formula = j.value("formula", "");
  g.gamma_source = j.value("gamma", "");
  g.ranks_measured = j.value("ranks_measured", std::vector<int>{});
  for (const json& p : j.at("points")) g.points.push_back({p.at("ranks").get<int>(), p.at("bytes").get<double>(), p.at("time_us").get<double>()});
  for (const json& s : j.at("segments")) g.segments.push_back(segment_from(s));
  if (g.segments.empty()) throw_invalid(g.key.describe() + " has no segment");
  return g;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::string fit_json(const FitReport& r) {
  json groups = json::array();
  for (const GroupFit& g : r.groups) groups.push_back(group_json(g));
  json j{{"schema", kFitSchema}, {"machine", r.machine}, {"host", r.host}, {"files", r.files}, {"groups", groups}};
  return j.dump(2) + "\n";
}

FitReport fit_from_json(const std::string& text, const std::string& source) {
  try {
    const json j = json::parse(text);
    if (j.value("schema", "") != kFitSchema)
      throw_invalid("is not a fit (schema " + std::string(kFitSchema) + "): make one with ccbench model fit RESULT... --out FIT.json");
    FitReport r{j.value("machine", ""), j.value("host", ""), j.value("files", std::vector<std::string>{}), {}};
    for (const json& g : j.at("groups")) r.groups.push_back(group_from(g));
    if (r.groups.empty()) throw_invalid("holds no fitted group");
    return r;
  } catch (const json::exception& e) {
    throw_invalid("--fit " + source + ": not a fit file (" + e.what() + "): make one with ccbench model fit --out FILE");
  } catch (const Error& e) {
    throw_invalid("--fit " + source + ": " + e.message());
  }
}

std::string distrust(const GroupFit& g) {
  std::string why;
  char text[200];
  for (const FitSegment& s : g.segments) {
    const std::string range = format_bytes(static_cast<uint64_t>(s.from_message)) + "-" + format_bytes(static_cast<uint64_t>(s.to_message));
    if (s.r2 < kMinTrustedR2 || s.worst_error > kMaxTrustedError) {
      std::snprintf(text, sizeof text, "%s%s: R2 %.4f (trusted from %.2f), worst error %.1f%% (trusted to %.0f%%)",
                    why.empty() ? "" : "; ", range.c_str(), s.r2, kMinTrustedR2, 100 * s.worst_error, 100 * kMaxTrustedError);
      why += text;
    }
  }
  if (!g.segments.empty() && g.segments.front().params.alpha_us <= 0)
    why += std::string(why.empty() ? "" : "; ") + "latency fitted as 0 (no size small enough to show it: add sizes from 8 B)";
  return why;
}

std::string fit_table(const FitReport& r) {
  std::ostringstream out;
  out << "# model fit of " << r.files.size() << " file(s) measured on " << r.host << " (" << r.machine << ")\n"
      << "# t = a x A + b x B + g x G, in relative error; bandwidth = 1/b, reduce = 1/g\n";
  char head[256];
  std::snprintf(head, sizeof head, "# %-34s %20s %10s %14s %12s %8s %9s  %s\n", "group", "message a step", "a_us", "bandwidth_GBps",
                "reduce_GBps", "R2", "worst_err", "at");
  out << head;
  for (const GroupFit& g : r.groups) {
    out << "# " << g.key.describe() << ": " << g.formula << "; gamma " << g.gamma_source << "\n";
    for (const FitSegment& s : g.segments) {
      char line[256];
      const std::string range = format_bytes(static_cast<uint64_t>(s.from_message)) + "-" + format_bytes(static_cast<uint64_t>(s.to_message));
      std::snprintf(line, sizeof line, "  %-34s %20s %10s %14s %12s %8s %8s%%  %s\n", g.key.describe().c_str(), range.c_str(),
                    fixed(s.params.alpha_us, 1).c_str(),
                    s.params.beta_us_per_byte > 0 ? fixed(s.params.bandwidth_gbps(), 3).c_str() : "-",
                    s.params.gamma_us_per_byte > 0 ? fixed(s.params.reduce_gbps(), 2).c_str() : "-",
                    fixed(s.r2, 4).c_str(), fixed(100 * s.worst_error, 1).c_str(),
                    format_bytes(static_cast<uint64_t>(s.worst_bytes)).c_str());
      out << line;
    }
    if (const std::string why = distrust(g); !why.empty())
      out << "#   POOR FIT, not to be projected from (model project refuses it without --accept-poor-fit): " << why << "\n";
    if (g.segments.size() > 1)
      out << "#   one formula does not fit the whole range: it breaks between messages of "
          << format_bytes(static_cast<uint64_t>(g.segments[0].to_message)) << " and "
          << format_bytes(static_cast<uint64_t>(g.segments[1].from_message)) << " a step\n";
  }
  return out.str();
}

}  // namespace ccb::model
