#include "report/compare_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ccb::report {
namespace {

using judge::Comparison;
using judge::KeyComparison;
using judge::Verdict;

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string p_text(const KeyComparison& k) { return k.p ? fmt("%.2g", *k.p) : "-"; }
std::string change_text(double c) { return fmt("%+.1f%%", c * 100); }

std::string totals(const Comparison& c) {
  std::ostringstream s;
  s << c.count(Verdict::kRegression) << " regression(s), " << c.count(Verdict::kImprovement) << " improvement(s), "
    << c.count(Verdict::kUnchanged) << " unchanged, " << c.count(Verdict::kNotComparable) << " not comparable; "
    << "geometric mean of the bus bandwidth change over " << c.tested << " tested key(s): " << change_text(c.geomean_change);
  return s.str();
}

// A note in a table cell: a '|' would end the cell.
std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

}  // namespace

std::string compare_table(const Comparison& c) {
  std::ostringstream out;
  out << "# ccbench compare: base " << c.base_path << ", new " << c.new_path << "\n";
  if (!c.not_comparable.empty()) out << "# not comparable: " << c.not_comparable << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-58s %10s %10s %8s %10s %10s %10s %10s %8s  %s\n", "key", "base_GBps", "new_GBps",
                "change", "base_p50", "new_p50", "base_p99", "new_p99", "p", "verdict");
  out << line;
  for (const KeyComparison& k : c.rows) {
    std::snprintf(line, sizeof line, "%-58s %10.4f %10.4f %8s %10.2f %10.2f %10.2f %10.2f %8s  %s\n", k.key.c_str(),
                  k.base_busbw, k.new_busbw, change_text(k.change).c_str(), k.base_p50, k.new_p50, k.base_p99, k.new_p99,
                  p_text(k).c_str(), std::string(judge::verdict_name(k.verdict)).c_str());
    out << line;
    if (!k.note.empty() && (k.verdict != Verdict::kNotComparable || c.not_comparable.empty())) out << "#   " << k.note << "\n";
  }
  for (const auto& key : c.only_base) out << "# only in the base: " << key << "\n";
  for (const auto& key : c.only_new) out << "# only in the new run: " << key << "\n";
  out << "# " << totals(c) << "\n" << c.closing_line() << "\n";
  return out.str();
}

std::string compare_markdown(const Comparison& c) {
  std::ostringstream out;
  out << "### ccbench compare\n\nBase `" << c.base_path << "`, new `" << c.new_path << "`.\n\n";
  if (!c.not_comparable.empty()) out << "**Not comparable:** " << c.not_comparable << "\n\n";
  out << "| key | base GB/s | new GB/s | change | p50 us (base, new) | p99 us (base, new) | p | verdict | why |\n"
      << "|---|---:|---:|---:|---:|---:|---:|---|---|\n";
  for (const KeyComparison& k : c.rows) {
    const std::string verdict(judge::verdict_name(k.verdict));
    out << "| " << k.key << " | " << fmt("%.4f", k.base_busbw) << " | " << fmt("%.4f", k.new_busbw) << " | "
        << change_text(k.change) << " | " << fmt("%.2f", k.base_p50) << ", " << fmt("%.2f", k.new_p50) << " | "
        << fmt("%.2f", k.base_p99) << ", " << fmt("%.2f", k.new_p99) << " | " << p_text(k) << " | "
        << (k.verdict == Verdict::kRegression ? "**" + verdict + "**" : verdict) << " | " << markdown_cell(k.note) << " |\n";
  }
  out << "\n" << totals(c) << ".\n\n**" << c.closing_line() << "**\n";
  if (!c.only_base.empty() || !c.only_new.empty())
    out << "\nOnly in one file: " << c.only_base.size() << " key(s) in the base, " << c.only_new.size()
        << " in the new run.\n";
  return out.str();
}

std::string compare_json(const Comparison& c) {
  using nlohmann::ordered_json;
  ordered_json rows = ordered_json::array();
  for (const KeyComparison& k : c.rows)
    rows.push_back({{"key", k.key}, {"verdict", judge::verdict_name(k.verdict)}, {"note", k.note},
                    {"base_busbw_gbps", k.base_busbw}, {"new_busbw_gbps", k.new_busbw}, {"change", k.change},
                    {"base_p50_us", k.base_p50}, {"new_p50_us", k.new_p50}, {"base_p99_us", k.base_p99},
                    {"new_p99_us", k.new_p99}, {"p", k.p ? ordered_json(*k.p) : ordered_json(nullptr)},
                    {"test", k.test}, {"base_n", k.base_n}, {"new_n", k.new_n}});
  ordered_json j{{"schema", "ccbench.compare/1"}, {"base", c.base_path}, {"new", c.new_path},
                 {"not_comparable", c.not_comparable}, {"keys", rows}, {"only_base", c.only_base},
                 {"only_new", c.only_new}, {"tested", c.tested}, {"geomean_change", c.geomean_change},
                 {"regressions", c.count(Verdict::kRegression)}, {"improvements", c.count(Verdict::kImprovement)},
                 {"exit_status", c.exit_status()}};
  return j.dump(2) + "\n";
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (ch >= 0x20 || ch == '\t' || ch == '\n') out += static_cast<char>(ch);
    }
  }
  return out;
}

std::string compare_junit(const Comparison& c) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"ccbench compare\" tests=\""
      << c.rows.size() + (c.tested == 0 ? 1 : 0) << "\" failures=\"" << c.count(Verdict::kRegression) + (c.tested == 0 ? 1 : 0) << "\" skipped=\""
      << c.count(Verdict::kNotComparable) << "\">\n";
  for (const KeyComparison& k : c.rows) {
    const std::string summary = "bus bandwidth " + fmt("%.4f", k.base_busbw) + " -> " + fmt("%.4f", k.new_busbw) +
                                " GB/s (" + change_text(k.change) + "), p = " + p_text(k);
    out << "    <testcase classname=\"ccbench.compare\" name=\"" << xml_escape(k.key) << "\">";
    if (k.verdict == Verdict::kRegression)
      out << "\n      <failure message=\"" << xml_escape(summary) << "\">" << xml_escape(summary + ". " + k.note)
          << "</failure>\n    ";
    else if (k.verdict == Verdict::kNotComparable)
      out << "\n      <skipped message=\"" << xml_escape(k.note) << "\"/>\n    ";
    else
      out << "\n      <system-out>" << xml_escape(summary + " (" + std::string(judge::verdict_name(k.verdict)) + ")")
          << "</system-out>\n    ";
    out << "</testcase>\n";
  }
  // Nothing tested is an exit 1 that no key's case shows: one case says why.
  if (c.tested == 0)
    out << "    <testcase classname=\"ccbench.compare\" name=\"a key was judged\">\n      <failure message=\""
        << xml_escape(c.closing_line()) << "\"/>\n    </testcase>\n";
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace ccb::report
