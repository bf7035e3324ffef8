#include "qualify_command.h"

#include <iostream>

#include "core/error.h"
#include "core/files.h"
#include "job/number_flags.h"
#include "job/preflight.h"
#include "job/rank_job.h"
#include "metrics/host_manifest.h"
#include "report/report.h"
#include "report/rules_report.h"
#include "report_command.h"
#include "runner/result_table.h"
#include "runner/soak.h"
#include "scan_command.h"
#include "scan_fabric.h"

namespace ccb::cli {
namespace {

using judge::BatteryItem;
using judge::BatteryKind;

RunOptions options_of(const BatteryItem& item, const judge::QualifySpec& spec) {
  RunOptions o;
  o.collective = find_collective(item.collective).kind;
  o.algorithm = item.kind == BatteryKind::kP2p ? Algorithm::kDirect : parse_algorithm(item.algo);
  o.dtype = parse_dtype(item.dtype);
  o.window = item.window;
  o.iters = item.iters;
  o.line_rate_gbps = spec.line_rate.empty() ? 0 : parse_line_rate(spec.line_rate);
  return o;
}

std::string where(const QualifyCommand& c, const BatteryItem& item) {
  return c.spec_path + ":" + std::to_string(item.line) + ": ";
}

void check_item(const QualifyCommand& c, const BatteryItem& item, int world) {
  if (item.kind == BatteryKind::kScan || item.kind == BatteryKind::kManifest) return;
  try {
    const RunOptions o = options_of(item, c.spec);
    validate_algorithm(o.collective, o.algorithm);
    for (uint64_t b : item.sizes) validate_size(o.collective, o.dtype, world, b);
    check_memory_fits(*std::max_element(item.sizes.begin(), item.sizes.end()), 1);
    const CollectiveDescriptor& d = describe(o.collective);
    if (item.kind == BatteryKind::kP2p && world % 2 != 0)
      throw_invalid(std::string(d.name) + " runs in pairs and " + std::to_string(world) + " ranks leave one out: use an even number");
    if (item.kind != BatteryKind::kP2p && d.columns != TableColumns::kCollective)
      throw_invalid(std::string(d.name) + " is a point-to-point test: write it as p2p: bw, bidir or lat");
  } catch (const Error& e) {
    throw_invalid(where(c, item) + e.what());
  }
}

// What the rules cannot judge from the record, judged as the battery runs; every rank
// holds the same outcomes, rank 0 also the heatmap.
struct Judged {
  std::vector<judge::RuleOutcome> outcomes;  // the scan's and the manifest's, beside the rules'
  std::optional<report::Plot> heatmap;
};

judge::RuleOutcome outcome(const BatteryItem& item, const std::string& name, const std::string& what, const std::string& key,
                           bool passed, const std::string& detail) {
  judge::RuleOutcome o;
  o.rule.name = name;
  o.rule.line = item.line;
  o.rule.bound.text = what;
  o.key = key;
  o.passed = passed;
  o.detail = detail;
  return o;
}

void run_sweep_item(const BatteryItem& item, const judge::QualifySpec& spec, RankContext& rank, ResultRecord* record,
                    ResultTable& table) {
  RunOptions o = options_of(item, spec);
  CollectiveRunner runner(rank.comm, rank.boot, o);
  if (record) table.header(item.describe(), false, false, describe(o.collective).columns);
  for (uint64_t b : item.sizes) {
    SizeResult r = runner.run(b);
    RunOptions ran = o;
    ran.algorithm = r.algorithm;
    if (!record) continue;
    table.row(r, ran);
    record->add(ResultRow{ran, r, "", "", 0, "", false});
  }
  if (record) table.footer();
}

void run_soak_item(const BatteryItem& item, const judge::QualifySpec& spec, RankContext& rank, ResultRecord* record,
                   ResultTable& table) {
  RunOptions o = options_of(item, spec);
  CollectiveRunner runner(rank.comm, rank.boot, o);
  SoakOptions options;
  options.duration_s = item.duration_s;
  const SoakState st = run_soak(runner, rank.boot, item.sizes, options, [](const SoakState&) {});
  if (!record) return;
  table.header(item.describe() + ": every call checked", false, false, describe(o.collective).columns);
  for (const SoakSize& s : st.sizes) {
    SizeResult r = soak_result(runner, rank.boot.size(), s);
    r.soak->elapsed_s = st.elapsed_s;
    r.soak->stopped_by = st.stopped_by;
    if (st.first_wrong) r.soak->first_wrong = describe(*st.first_wrong);
    RunOptions ran = o;
    ran.algorithm = s.algorithm;
    table.row(r, ran);
    record->replace(ResultRow{ran, r, "", "", 0, "", false});
  }
  table.footer();
  if (st.first_wrong) std::cout << "# first wrong element: " << describe(*st.first_wrong) << "\n";
}

void run_scan_item(const BatteryItem& item, const QualifyCommand& c, RankContext& rank, Judged& judged) {
  const std::string name = "scan: no slow host or cable";
  if (rank.boot.size() < 2) {
    judged.outcomes.push_back(outcome(item, name, "skipped", "one host", true, "a scan needs 2 hosts or more"));
    return;
  }
  ScanCommand scan;
  scan.base = c.base;
  scan.fabric.topology = c.topology;
  scan.fabric.plan = c.plan;
  scan.bw_frac = item.bw_frac;
  scan.lat_factor = item.lat_factor;
  const ScanOutcome s = measure_scan(scan, rank, rank.boot.rank() == 0);
  std::string detail;
  for (const std::string& line : s.lines) detail += (detail.empty() ? "" : "; ") + line;
  if (s.wrong > 0) detail += "; " + std::to_string(s.wrong) + " wrong elements arrived";
  char what[96];
  std::snprintf(what, sizeof what, "bandwidth >= %.2f x median, latency <= %.2f x minimum", item.bw_frac, item.lat_factor);
  judged.outcomes.push_back(outcome(item, name, what, std::to_string(s.labels.size()) + " hosts", s.pass(), detail));
  if (rank.boot.rank() == 0) {
    for (const std::string& line : s.lines) std::cout << line << "\n";
    judged.heatmap = scan_heatmap(s);
  }
}

// Rank 0's warnings about its host, every rank's about its own placement.
void run_manifest_item(const BatteryItem& item, const JobInfo& job, RankContext& rank, Judged& judged) {
  const bool root = rank.boot.rank() == 0;
  std::string mine;
  for (const std::string& w : root ? job.warnings : placement_warnings("/", job.manifest, allowed_cpus()))
    mine += w + "\n";
  const std::string name = "manifest: no warnings";
  bool any = false;
  int r = 0;
  for (const std::string& theirs : rank.boot.allgather(mine)) {
    size_t start = 0;
    for (size_t end; (end = theirs.find('\n', start)) != std::string::npos; start = end + 1) {
      judged.outcomes.push_back(outcome(item, name, item.allow_warnings ? "warnings allowed" : "none", "rank " + std::to_string(r),
                                        item.allow_warnings, theirs.substr(start, end - start)));
      any = true;
    }
    ++r;
  }
  if (!any) judged.outcomes.push_back(outcome(item, name, "none", "every rank", true, "no warnings"));
}

judge::RuleReport judge_battery(const QualifyCommand& c, const ResultRecord& record, const Judged& judged) {
  std::vector<judge::Rule> rules = c.spec.rules;
  for (judge::Rule r : judge::parse_rules("rules:\n  - name: no wrong results\n    require: wrong == 0\n", "(built in)")) {
    r.line = 0;  // built in: no line of the spec to name
    rules.push_back(r);
  }
  const judge::ResultFile file = judge::parse_result_text(record.json_text(), c.base.json_path.empty() ? "qualify" : c.base.json_path, true);
  judge::RuleReport report = judge::check_rules(rules, file, nullptr);
  report.rules_path = c.spec_path;
  report.judge = "qualify";
  report.outcomes.insert(report.outcomes.end(), judged.outcomes.begin(), judged.outcomes.end());
  return report;
}

// The verdict in one line, on the terminal and at the top of the report.
std::string qualify_line(const QualifyCommand& c, const judge::RuleReport& verdict) {
  return std::string("qualify: ") + (verdict.exit_status() == 0 ? "PASS" : "FAIL") + ": " + c.spec.name + ", " +
         std::to_string(verdict.failures()) + " of " + std::to_string(verdict.outcomes.size()) + " checks failed";
}

void write_outputs(const QualifyCommand& c, const ResultRecord& record, const judge::RuleReport& verdict,
                   const Judged& judged) {
  std::cout << report::rules_table(verdict) << std::flush;
  if (!c.base.rules_junit.empty()) write_output(check_output("--junit", c.base.rules_junit), report::rules_junit(verdict));
  if (c.report_dir.empty()) return;
  report::ReportInput in;
  in.title = "ccbench qualify: " + c.spec.name;
  in.files.push_back(judge::parse_result_text(record.json_text(), c.spec.name, true));
  in.rules = verdict;
  in.verdict = qualify_line(c, verdict);
  if (judged.heatmap) in.extra_plots.push_back(*judged.heatmap);
  const report::ReportOutput out = report::build_report(in);
  const std::string dir = c.report_dir + "/";
  write_file_atomically(dir + "index.html", out.html);
  write_file_atomically(dir + "summary.md", out.markdown);
  for (const auto& [name, contents] : out.files) write_file_atomically(dir + name, contents);
  if (!out.plot_error.empty()) print_line_to_stderr("warning: " + out.plot_error + " (the report is written without plots)");
}

}  // namespace

void add_qualify_options(CLI::App& q, QualifyCommand& c) {
  q.add_option("--spec", c.spec_path, "The qualification spec (YAML: battery and rules; see specs/)")->required();
  q.add_option("--np", c.base.np, "Ranks to start on this host (local launcher; a real qualification has one per host)")->check(CLI::Range(1, 1024))->capture_default_str();
  q.add_option("--timeout", c.base.timeout_s, "Seconds before a silent peer is declared gone")->check(ccb::timeout_seconds())->capture_default_str();
  q.add_option("--spin-us", c.base.spin_us, "Busy-poll this long before sleeping in epoll")->check(CLI::Range(0, 1000000))->capture_default_str();
  q.add_option("--topology", c.topology, "The fabric's topology file: the scan names the element its slow pairs share (rank r is host r)")->group("Fabric");
  q.add_option("--plan", c.plan, "The scan's plan with --topology: full, leaf-first[:K] or sample:K")->capture_default_str()->group("Fabric");
  q.add_option("--json", c.base.json_path, "Write the battery's results (ccbench.result/2)")->group("Output");
  q.add_option("--junit", c.base.rules_junit, "Write the verdicts as JUnit XML")->group("Output");
  q.add_option("--report", c.report_dir, "Write the report into this folder: index.html (plots inline), summary.md, plots")->group("Output");
  q.add_option("--line-rate", c.base.line_rate, "The link's rate in bit/s (100G) that link_util_pct rules divide by; overrides the spec's line_rate:")->group("Output");
  q.add_option("--socket-buffer", c.base.socket_buffer, "SO_SNDBUF/SO_RCVBUF size (0: kernel autotuning)")->capture_default_str()->group("TCP");
}

void prepare_qualify(const CLI::App& app, QualifyCommand& c, int world, bool writes_outputs) {
  c.spec = judge::load_qualify_spec(c.spec_path);
  if (app.count("--transport") > 0 && c.base.transport.name != c.spec.transport)
    throw_invalid("--transport " + c.base.transport.name + " but the spec qualifies " + c.spec.transport + ": drop --transport");
  c.base.transport.name = c.spec.transport;
  if (app.count("--line-rate") > 0) c.spec.line_rate = c.base.line_rate;  // the flag wins over the spec
  else c.base.line_rate = c.spec.line_rate;
  if (!c.spec.line_rate.empty()) parse_line_rate(c.spec.line_rate);
  for (const BatteryItem& item : c.spec.battery) check_item(c, item, world);
  ScanCommand scan;
  scan.fabric.topology = c.topology;
  scan.fabric.plan = c.plan;
  if (world >= 2) scan_topology(scan, world);  // a bad file or plan is one line before any rank starts
  if (!writes_outputs) return;
  if (!c.base.json_path.empty()) check_output("--json", c.base.json_path);
  if (!c.base.rules_junit.empty()) check_output("--junit", c.base.rules_junit);
  if (!c.report_dir.empty()) {
    prepare_output_dir("--report", c.report_dir);
    for (const char* name : {"index.html", "summary.md"}) check_output("--report", c.report_dir + "/" + name);
  }
}

int run_qualify_rank(QualifyCommand& c) {
  LaunchInfo info = detect_launch(process_env());
  check_fd_budget(c.base.transport, info.world_size);
  bootstrap::JobFingerprint f;
  bootstrap::add_field(f, "ccbench", std::string(kCcbenchVersion) + " qualify");
  bootstrap::add_field(f, "world size", std::to_string(info.world_size));
  bootstrap::add_field(f, "--transport", c.base.transport.name);
  bootstrap::add_field(f, "--spec", c.spec.name + " (" + std::to_string(c.spec.battery.size()) + " tests)");
  JobSettings settings{c.base.transport, std::chrono::milliseconds(static_cast<long long>(c.base.timeout_s * 1000)),
                       std::chrono::microseconds(c.base.spin_us), f};
  return run_as_rank(info, settings, [&](RankContext& rank) {
    const bool root = rank.boot.rank() == 0;
    JobInfo job = job_info(c.base, rank.boot, rank.transport, rank.layout);
    job.wait = rank.settings.wait_policy();
    ResultRecord record(job, root ? c.base.json_path : "", "");
    ResultTable table(std::cout);
    Judged judged;
    size_t i = 0;
    for (const BatteryItem& item : c.spec.battery) {
      if (root) std::cout << "# qualify " << ++i << " of " << c.spec.battery.size() << ": " << item.describe() << "\n" << std::flush;
      switch (item.kind) {
        case BatteryKind::kP2p:
        case BatteryKind::kCollective: run_sweep_item(item, c.spec, rank, root ? &record : nullptr, table); break;
        case BatteryKind::kSoak: run_soak_item(item, c.spec, rank, root ? &record : nullptr, table); break;
        case BatteryKind::kScan: run_scan_item(item, c, rank, judged); break;
        case BatteryKind::kManifest: run_manifest_item(item, job, rank, judged); break;
      }
    }
    record.finish(true);
    int status = 0;
    if (root) {
      const judge::RuleReport verdict = judge_battery(c, record, judged);
      write_outputs(c, record, verdict, judged);
      status = verdict.exit_status();
      std::cout << qualify_line(c, verdict) << "\n" << std::flush;
    }
    // Every rank exits as rank 0 judged; anything but its "0" is a failure.
    return rank.boot.allgather(std::to_string(status)).front() == "0" ? 0 : 1;
  });
}

}  // namespace ccb::cli
