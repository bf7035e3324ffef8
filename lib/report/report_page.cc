// The report's pages: one self-contained HTML file (plots inline as data URIs, no
// script, no link outside itself) and a Markdown summary beside the PNG files.
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "judge/statistics.h"
#include "report/compare_report.h"
#include "report/report.h"
#include "report/rules_report.h"

namespace ccb::report {
namespace {

const char* kStyle =
    "body{font-family:'DejaVu Sans',sans-serif;margin:2em;max-width:1200px;color:#222}"
    "table{border-collapse:collapse;font-size:13px;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 7px}"
    "td{text-align:right}td.key,th{text-align:left}.regression,.fail{background:#fbdada}.improvement{background:#dcf5dc}"
    "figure{margin:1.5em 0}img{max-width:100%;border:1px solid #e4e4e4}.error{color:#b00}"
    "#verdict{font-size:20px;font-weight:bold;padding:.5em .8em;border-radius:4px}"
    "#verdict.pass{background:#dcf5dc;color:#14501e}#verdict.fail{background:#fbdada;color:#7a0c0c}"
    "#verdict.none{background:#eee}";

std::string base64(const std::string& in) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    for (int s : {18, 12, 6, 0}) out += digits[(v >> s) & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += digits[(v >> 18) & 63];
    out += digits[(v >> 12) & 63];
    out += i + 1 < in.size() ? digits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string fmt(const char* f, double v) {
  char b[48];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

double median_of(const std::vector<double>& v) { return v.empty() ? 0 : judge::summarize_median(v).median; }

std::string files_table(const ReportInput& in) {
  std::ostringstream h;
  h << "<table id=\"files\"><tr><th>file</th><th>schema</th><th>started</th><th>machine</th><th>host</th>"
       "<th>transport</th><th>line rate</th><th>results</th></tr>\n";
  for (const judge::ResultFile& f : in.files)
    h << "<tr><td class=\"key\">" << html_escape(f.path) << "</td><td class=\"key\">" << html_escape(f.schema)
      << "</td><td class=\"key\">" << html_escape(f.started_utc) << "</td><td class=\"key\">" << html_escape(f.machine)
      << "</td><td class=\"key\">" << html_escape(f.host) << "</td><td class=\"key\">" << html_escape(f.transport_settings)
      << "</td><td>" << (f.line_rate_gbps ? fmt("%g Gbit/s", *f.line_rate_gbps) : "-") << "</td><td>" << f.results.size()
      << "</td></tr>\n";
  return h.str() + "</table>\n";
}

std::string verdict_tables(const ReportInput& in) {
  std::ostringstream h;
  if (in.comparison) {
    const judge::Comparison& c = *in.comparison;
    h << "<h3>Against the baseline " << html_escape(c.base_path) << "</h3>\n";
    if (!c.not_comparable.empty()) h << "<p class=\"error\">Not comparable: " << html_escape(c.not_comparable) << "</p>\n";
    h << "<table id=\"verdicts\"><tr><th>key</th><th>base GB/s</th><th>new GB/s</th><th>change</th><th>p50 us</th>"
         "<th>p99 us</th><th>p</th><th>verdict</th></tr>\n";
    for (const judge::KeyComparison& k : c.rows) {
      const std::string v(judge::verdict_name(k.verdict));
      h << "<tr class=\"" << (k.verdict == judge::Verdict::kRegression ? "regression" : k.verdict == judge::Verdict::kImprovement ? "improvement" : "")
        << "\"><td class=\"key\">" << html_escape(k.key) << "</td><td>" << fmt("%.4f", k.base_busbw) << "</td><td>"
        << fmt("%.4f", k.new_busbw) << "</td><td>" << fmt("%+.1f%%", k.change * 100) << "</td><td>"
        << fmt("%.1f", k.base_p50) << " &rarr; " << fmt("%.1f", k.new_p50) << "</td><td>" << fmt("%.1f", k.base_p99)
        << " &rarr; " << fmt("%.1f", k.new_p99) << "</td><td>" << (k.p ? fmt("%.2g", *k.p) : "-") << "</td><td class=\"key\">"
        << html_escape(v) << (k.note.empty() ? "" : " (" + html_escape(k.note) + ")") << "</td></tr>\n";
    }
    h << "</table>\n<p>" << c.count(judge::Verdict::kRegression) << " regression(s), "
      << c.count(judge::Verdict::kImprovement) << " improvement(s); geometric mean of the change "
      << fmt("%+.1f%%", c.geomean_change * 100) << ".</p>\n";
  }
  if (in.rules) {
    h << "<h3>Rules</h3>\n<table id=\"" << (in.comparison ? "rules" : "verdicts")
      << "\"><tr><th>rule</th><th>result</th><th>measured</th><th>verdict</th></tr>\n";
    for (const judge::RuleOutcome& o : in.rules->outcomes)
      h << "<tr class=\"" << (o.passed ? "" : "fail") << "\"><td class=\"key\">" << html_escape(o.rule.name)
        << "</td><td class=\"key\">" << html_escape(o.key) << "</td><td class=\"key\">" << html_escape(o.detail)
        << "</td><td class=\"key\">" << (o.passed ? "pass" : "FAIL") << "</td></tr>\n";
    h << "</table>\n";
  }
  if (!in.comparison && !in.rules) h << "<p>No baseline and no rules were given: nothing was judged.</p>\n";
  return h.str();
}

// The first thing on the page: the verdict, green or red.
std::string verdict_html(const ReportInput& in) {
  const auto [line, passed] = report_verdict(in);
  if (line.empty()) return "<p id=\"verdict\" class=\"none\">Nothing was judged: no baseline and no rules were given.</p>\n";
  return "<p id=\"verdict\" class=\"" + std::string(passed ? "pass" : "fail") + "\">" + html_escape(line) + "</p>\n";
}

std::string results_table(const ReportInput& in) {
  std::ostringstream h;
  h << "<table id=\"results\"><tr><th>file</th><th>key</th><th>passes</th><th>bus bandwidth GB/s (median)</th>"
       "<th>p50 us</th><th>p99 us</th><th>wrong</th></tr>\n";
  for (const judge::ResultFile& f : in.files)
    for (const judge::Measured& m : f.results)
      h << "<tr><td class=\"key\">" << html_escape(std::filesystem::path(f.path).filename().string())
        << "</td><td class=\"key\">" << html_escape(m.key) << "</td><td>" << m.busbw_gbps.size() << "</td><td>"
        << fmt("%.4f", median_of(m.busbw_gbps)) << "</td><td>" << fmt("%.2f", median_of(m.p50_us)) << "</td><td>"
        << fmt("%.2f", median_of(m.p99_us)) << "</td><td>" << m.wrong << "</td></tr>\n";
  return h.str() + "</table>\n";
}

}  // namespace

std::pair<std::string, bool> report_verdict(const ReportInput& in) {
  if (!in.verdict.empty()) return {in.verdict, in.verdict.find("FAIL") == std::string::npos};
  std::string line;
  bool passed = true;
  if (in.comparison) {
    line = in.comparison->closing_line();
    passed = in.comparison->exit_status() == 0;
  }
  if (in.rules) {
    const size_t failed = in.rules->failures(), all = in.rules->outcomes.size();
    line += (line.empty() ? "" : "; ") + std::string("rules: ") + (failed ? "FAIL: " : "PASS: ") + std::to_string(failed) +
            " of " + std::to_string(all) + " checks failed";
    passed = passed && failed == 0;
  }
  return {line, passed};
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

ReportOutput build_report(const ReportInput& in) {
  ReportOutput out;
  std::ostringstream figures, md_figures;
  for (const Plot& p : report_plots(in)) {
    if (!out.plot_error.empty()) break;
    try {
      Drawing d = draw(p);
      figures << "<figure><img alt=\"" << html_escape(p.title) << "\" src=\"data:image/svg+xml;base64," << base64(d.svg)
              << "\"><figcaption>" << html_escape(p.title) << " (<a href=\"" << p.name << ".svg\">SVG</a>, <a href=\""
              << p.name << ".png\">PNG</a>)</figcaption></figure>\n";
      md_figures << "![" << p.title << "](" << p.name << ".png)\n\n";
      out.files.emplace_back(p.name + ".svg", std::move(d.svg));
      out.files.emplace_back(p.name + ".png", std::move(d.png));
    } catch (const std::exception& e) {
      out.plot_error = e.what();
    }
  }
  if (!out.plot_error.empty()) {
    figures.str("");
    figures << "<p class=\"error\">No plots: " << html_escape(out.plot_error) << "</p>\n";
    md_figures.str("No plots: " + out.plot_error + "\n\n");
    out.files.clear();
  }
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html_escape(in.title)
    << "</title><style>" << kStyle << "</style></head><body>\n<h1>" << html_escape(in.title) << "</h1>\n" << verdict_html(in)
    << in.lead_html << "<h2>Result files</h2>\n" << files_table(in) << "<h2>Verdicts</h2>\n" << verdict_tables(in)
    << "<h2>Plots</h2>\n" << figures.str() << "<h2>Results</h2>\n" << results_table(in) << "</body></html>\n";
  out.html = h.str();
  std::ostringstream md;
  const auto [verdict, passed] = report_verdict(in);
  md << "# " << in.title << "\n\n**" << (verdict.empty() ? "Nothing was judged: no baseline and no rules" : verdict) << "**\n\nResult files:";
  for (const judge::ResultFile& f : in.files) md << " `" << f.path << "`";
  md << "\n\n" << in.lead_markdown;
  if (in.comparison) md << compare_markdown(*in.comparison) << "\n";
  if (in.rules) md << rules_markdown(*in.rules) << "\n";
  md << "## Plots\n\n" << md_figures.str() << "The full report with every result: `index.html`.\n";
  out.markdown = md.str();
  return out;
}

}  // namespace ccb::report
