#include "model/study.h"

#include <algorithm>
#include <map>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "judge/statistics.h"
#include "model/compute_time.h"
#include "profiles/profile.h"

namespace ccb::model {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double median(const std::vector<double>& v) { return v.empty() ? 0 : judge::summarize_median(v).median; }

// Peak and mean link use of one profile's step in a run, from its entries' rows.
void link_use(const judge::ResultFile& f, const judge::MeasuredStep& step, StudyCell& cell) {
  double bus_bytes = 0;
  for (const judge::Measured& m : f.results) {
    if (m.profile != step.name || m.step_algorithm != step.algorithm) continue;
    const double busbw = median(m.busbw_gbps);  // GB/s
    cell.peak_gbit = std::max(cell.peak_gbit, busbw * 8);
    bus_bytes += busbw * 1e3 * median(m.time_us) * static_cast<double>(std::max<uint64_t>(m.count_per_step, 1));
  }
  const double step_us = step.median_us();
  cell.mean_gbit = step_us > 0 ? bus_bytes / step_us * 8 / 1e3 : 0;
}

void set_compute(StudyProfile& p, const ComputeChoice& c, int ranks) {
  if (c.compute_ms) {
    p.compute_ms = *c.compute_ms;
    p.compute_how = "given: --compute-ms " + fixed(*c.compute_ms, 1);
    return;
  }
  const std::string profile = p.name.substr(0, p.name.find(' '));  // without " (ring)"
  const size_t colon = profile.rfind(':');
  const std::string model = profile.substr(0, colon);
  const auto given = std::find_if(c.models.begin(), c.models.end(), [&](const ModelConfig& m) { return m.name == model; });
  if (given == c.models.end() && !find_preset(model))
    throw_invalid("study: " + model + " is not a preset, so its compute time needs its model: give --compute-ms MS, "
                  "or the model's file (--profile FILE.json)");
  const ModelConfig m = given != c.models.end() ? *given : load_model(model);
  const bool tp = colon != std::string::npos && parse_mode(profile.substr(colon + 1)) == ParallelMode::kTensorParallel;
  const ComputeTime t = derive_compute_time(m, c.tflops, c.mfu, tp ? ranks : 1);
  p.compute_ms = t.ms;
  p.compute_how = t.how + " (" + c.gpu + ")";
}

StudyProfile& profile_named(Study& s, const std::string& name, const std::string& summary) {
  for (StudyProfile& p : s.profiles)
    if (p.name == name) return p;
  return s.profiles.emplace_back(StudyProfile{name, summary, 0, "", {}});
}

}  // namespace

Study build_study(const std::vector<StudyRun>& runs, const ComputeChoice& compute) {
  if (runs.empty()) throw_invalid("study: no run to tabulate: give --transports, or --from RESULT.json");
  Study s;
  for (const StudyRun& r : runs) {
    if (std::find(s.labels.begin(), s.labels.end(), r.label) != s.labels.end())
      throw_invalid("study: two runs are labelled '" + r.label + "': give each --from its own --label");
    s.labels.push_back(r.label);
    bool any = false;
    for (const judge::MeasuredStep& step : r.file.steps) {
      if (step.kind != "profile") continue;
      any = true;
      // A run of several algorithms (--algo ring,tree) has a step per algorithm.
      const std::string name = step.name + (step.algorithm == "auto" ? "" : " (" + step.algorithm + ")");
      StudyProfile& p = profile_named(s, name, step.summary);
      if (p.compute_how.empty()) set_compute(p, compute, r.file.ranks);
      StudyCell cell{r.label, r.file.transport, step.median_us() / 1e3, 0, 0, 0, step.comm_us.size()};
      link_use(r.file, step, cell);
      cell.share = cell.comm_ms / (cell.comm_ms + p.compute_ms);
      p.cells.push_back(cell);
    }
    if (!any)
      throw_invalid("study: " + r.file.path + " holds no profile step: measure with ccbench run --profile MODEL:MODE --json FILE");
  }
  for (const StudyProfile& p : s.profiles)
    if (p.cells.size() < runs.size())
      s.notes.push_back(p.name + " was measured by " + std::to_string(p.cells.size()) + " of the " +
                        std::to_string(runs.size()) + " runs");
  return s;
}

std::string study_text(const Study& s) {
  std::ostringstream out;
  for (const StudyProfile& p : s.profiles) {
    out << "# " << p.name << ": " << p.summary << "\n# compute " << fixed(p.compute_ms, 1) << " ms per step, "
        << p.compute_how << "\n";
    out << "#   run                  comm_ms/step  peak_Gbit/s  mean_Gbit/s  comm_share";
    for (const StudyCell& other : p.cells) out << "  vs_" << other.label;
    out << "\n";
    for (const StudyCell& c : p.cells) {
      char line[160];
      std::snprintf(line, sizeof line, "  %-22s %12.2f %12.2f %12.2f %10.1f%%", (c.label + " (" + c.transport + ")").c_str(),
                    c.comm_ms, c.peak_gbit, c.mean_gbit, 100 * c.share);
      out << line;
      for (const StudyCell& other : p.cells)
        out << "  " << std::string(std::max<size_t>(other.label.size() + 3, 6) - 6, ' ') << fixed(other.comm_ms / c.comm_ms, 2) << "x";
      out << "\n";
    }
  }
  out << "# vs_X: X's communication time over this run's (above 1: this run is faster)\n";
  for (const std::string& n : s.notes) out << "# note: " << n << "\n";
  return out.str();
}

namespace {

// A profile's table as words, for Markdown and HTML alike.
std::vector<std::string> table_header(const StudyProfile& p) {
  std::vector<std::string> h{"run", "transport", "comm ms/step", "peak Gbit/s", "mean Gbit/s", "comm share"};
  for (const StudyCell& o : p.cells) h.push_back("vs " + o.label);
  return h;
}

std::vector<std::string> table_row(const StudyProfile& p, const StudyCell& c) {
  std::vector<std::string> r{c.label, c.transport, fixed(c.comm_ms, 2), fixed(c.peak_gbit, 2), fixed(c.mean_gbit, 2),
                             fixed(100 * c.share, 1) + "%"};
  for (const StudyCell& o : p.cells) r.push_back(fixed(o.comm_ms / c.comm_ms, 2) + "x");
  return r;
}

std::string compute_line(const StudyProfile& p) {
  return p.summary + ". Compute " + fixed(p.compute_ms, 1) + " ms per step (" + p.compute_how + ").";
}

constexpr const char* kSpeedupNote = "\"vs X\": X's communication time over the run's; above 1, the run is faster.";

}  // namespace

std::string study_markdown(const Study& s) {
  auto line = [](const std::vector<std::string>& cells) {
    std::string l = "|";
    for (const std::string& c : cells) l += " " + c + " |";
    return l + "\n";
  };
  std::ostringstream md;
  md << "## Study: communication per training step\n\n";
  for (const StudyProfile& p : s.profiles) {
    const std::vector<std::string> head = table_header(p);
    md << "### " << p.name << "\n\n" << compute_line(p) << "\n\n" << line(head) << "|---|---|";
    for (size_t i = 2; i < head.size(); ++i) md << "---:|";
    md << "\n";
    for (const StudyCell& c : p.cells) md << line(table_row(p, c));
    md << "\n";
  }
  md << kSpeedupNote << "\n\n";
  for (const std::string& n : s.notes) md << "Note: " << n << "\n\n";
  return md.str();
}

std::string study_html(const Study& s) {
  auto line = [](const std::vector<std::string>& cells, const char* tag) {
    std::string l = "<tr>";
    for (const std::string& c : cells) l += std::string("<") + tag + ">" + report::html_escape(c) + "</" + tag + ">";
    return l + "</tr>\n";
  };
  std::ostringstream h;
  h << "<h2>Study: communication per training step</h2>\n";
  for (const StudyProfile& p : s.profiles) {
    h << "<h3>" << report::html_escape(p.name) << "</h3>\n<p>" << report::html_escape(compute_line(p)) << "</p>\n"
      << "<table class=\"study\">" << line(table_header(p), "th");
    for (const StudyCell& c : p.cells) h << line(table_row(p, c), "td");
    h << "</table>\n";
  }
  h << "<p>" << report::html_escape(kSpeedupNote) << "</p>\n";
  for (const std::string& n : s.notes) h << "<p class=\"note\">Note: " << report::html_escape(n) << "</p>\n";
  return h.str();
}

std::string study_json(const Study& s) {
  nlohmann::json profiles = nlohmann::json::array();
  for (const StudyProfile& p : s.profiles) {
    nlohmann::json cells = nlohmann::json::array();
    for (const StudyCell& c : p.cells) {
      nlohmann::json speedup;
      for (const StudyCell& o : p.cells) speedup[o.label] = o.comm_ms / c.comm_ms;
      cells.push_back({{"label", c.label}, {"transport", c.transport}, {"comm_ms", c.comm_ms}, {"passes", c.passes},
                       {"peak_gbit", c.peak_gbit}, {"mean_gbit", c.mean_gbit}, {"comm_share", c.share},
                       {"speedup_over", speedup}});
    }
    profiles.push_back({{"profile", p.name}, {"summary", p.summary}, {"compute_ms", p.compute_ms},
                        {"compute", p.compute_how}, {"runs", cells}});
  }
  return nlohmann::json{{"schema", "ccbench.study/1"}, {"labels", s.labels}, {"profiles", profiles}, {"notes", s.notes}}
             .dump(2) + "\n";
}

report::Plot study_bars(const Study& s) {
  static const unsigned kColors[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b};
  report::Plot p;
  p.name = "study-step-comm";
  p.title = "Communication per training step";
  p.ylabel = "ms per step";
  p.log_x = false;
  p.x_is_size = false;
  for (const StudyProfile& prof : s.profiles)
    for (const StudyCell& c : prof.cells) {
      const size_t i = static_cast<size_t>(std::find(s.labels.begin(), s.labels.end(), c.label) - s.labels.begin());
      p.bars.push_back({prof.name + " " + c.label, c.comm_ms, kColors[i % 6]});
    }
  return p;
}

report::Plot study_busbw(const std::vector<StudyRun>& runs) {
  report::Plot p;
  p.name = "study-busbw";
  p.title = "Bus bandwidth of the profiles' calls";
  p.xlabel = "size";
  p.ylabel = "bus bandwidth (GB/s)";
  for (const StudyRun& r : runs) {
    std::map<uint64_t, std::vector<double>> by_size;  // a size several profiles call: their median
    for (const judge::Measured& m : r.file.results)
      if (!m.profile.empty()) by_size[m.bytes].push_back(median(m.busbw_gbps));
    report::Series line{r.label + " (" + r.file.transport + ")", {}, false};
    for (const auto& [bytes, values] : by_size) line.points.push_back({static_cast<double>(bytes), median(values), 0, 0});
    if (!line.points.empty()) p.series.push_back(std::move(line));
  }
  return p;
}

}  // namespace ccb::model
