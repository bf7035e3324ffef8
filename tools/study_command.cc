#include "study_command.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "core/error.h"
#include "core/files.h"
#include "job/number_flags.h"
#include "job/preflight.h"
#include "judge/result_file.h"
#include "model/compute_time.h"
#include "report/report.h"
#include "report_command.h"
#include "run_hier.h"

namespace ccb::cli {
namespace {

std::string result_path(const StudyCommand& c, const std::string& transport) { return c.out_dir + "/" + transport + ".json"; }

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

std::vector<std::string> StudyCommand::transport_list() const { return split_commas(transports); }

model::ComputeChoice StudyCommand::compute() const {
  model::ComputeChoice c{compute_ms, model::parse_tflops(gpu), mfu, gpu, {}};
  for (const std::string& p : base.profiles) c.models.push_back(load_model(p.substr(0, p.rfind(':'))));
  return c;
}

void add_study_options(CLI::App& sub, StudyCommand& c) {
  RunCommand& b = c.base;
  sub.add_option("--profile", b.profiles, "LLM steps to compare: NAME:MODE, comma-separated or repeated (llama2-7b:ddp,bert-large:ddp)")
      ->delimiter(',')->allow_extra_args(false);
  sub.add_option("--transports", c.transports, "Transports to measure, one job each: tcp,ipoib,verbs");
  sub.add_option("--from", c.from, "Tabulate this result file of profile runs instead of measuring (repeatable)");
  sub.add_option("--label", c.labels, "Name the --from file in the same position (default: its transport)");
  sub.add_option("--out", c.out_dir, "The study's folder (made if missing): <transport>.json, study.json, summary.md, index.html, plots")->capture_default_str();
  sub.add_flag("--skip-unavailable", c.skip_unavailable, "A transport that cannot run here becomes a note in the report instead of an error");
  sub.add_option("--compute-ms", c.compute_ms, "A training step's compute time, for the communication's share (default: derived from the model)")
      ->check(finite_in(0, 1e9))->group("Compute");
  sub.add_option("--gpu-tflops", c.gpu, "The GPU the compute is derived for: a100, h100 (dense bf16) or TFLOPS")->capture_default_str()->group("Compute");
  sub.add_option("--mfu", c.mfu, "The model flops utilisation reached")->check(finite_in(0.01, 1))->capture_default_str()->group("Compute");
  sub.add_option("--np", b.np, "Ranks to start on this host (local launcher)")->check(CLI::Range(1, 1024))->capture_default_str();
  sub.add_option("-n,--iters", b.iters, "Timed iterations per call (0: 1 GiB / size, 5..1000)")->check(CLI::Range(0, 100000000));
  sub.add_option("-w,--warmup", b.warmup, "Warm-up iterations per call")->check(CLI::Range(-1, 1000000));
  sub.add_option("--repeat", b.repeat, "Passes over each profile")->check(CLI::Range(1, 10000))->capture_default_str();
  sub.add_option("--algo", b.algos, "auto, ring, tree or rd")->check(CLI::IsMember({"auto", "ring", "tree", "rd"}))->capture_default_str();
  sub.add_option("--timeout", b.timeout_s, "Seconds before a silent peer is declared gone")->check(timeout_seconds())->capture_default_str();
  sub.add_option("--spin-us", b.spin_us, "Busy-poll this long before sleeping in epoll")->check(CLI::Range(0, 1000000))->capture_default_str();
  sub.add_option("--line-rate", b.line_rate, "Link rate in bit/s for utilization (100G)");
  // Several ranks a host: with --algo auto, each profile's AllReduce, ReduceScatter,
  // AllGather and Broadcast above 32 KiB run in two levels, as in `run`.
  add_host_level_options(sub, b);
}

void prepare_study(StudyCommand& c, bool report_skips) {
  if (c.from.empty() == c.transports.empty())
    throw_invalid("study: give --transports tcp,verbs (measure now) or --from RESULT.json ... (tabulate runs), not both");
  if (!c.labels.empty() && c.labels.size() != c.from.size())
    throw_invalid("study: " + std::to_string(c.labels.size()) + " --label for " + std::to_string(c.from.size()) +
                  " --from: give one label per file, in the same order");
  (void)c.compute();  // --gpu-tflops
  prepare_output_dir("--out", c.out_dir);
  if (!c.from.empty()) return;
  if (c.base.profiles.empty()) throw_invalid("study: give --profile MODEL:MODE,... (ccbench run --list-profiles shows them)");
  (void)c.base.profile_list();  // unknown names fail here
  c.skipped.clear();
  for (const std::string& t : c.transport_list()) {
    if (!is_transport(t)) throw_invalid("study: --transports '" + t + "' is not one of " + transport_list());
    TransportChoice choice = c.base.transport;
    choice.name = t;
    try {
      check_transport_here(choice);
    } catch (const Error& e) {
      if (!c.skip_unavailable) throw_invalid("study: " + t + " cannot run here: " + e.message() + " (--skip-unavailable goes on without it)");
      c.skipped.push_back(t + ": " + e.message());
      if (report_skips) print_line_to_stderr("note: study skips " + t + ": " + e.message());
    }
  }
  if (c.skipped.size() == c.transport_list().size()) throw_invalid("study: none of --transports " + c.transports + " can run here");
}

int write_study(const StudyCommand& c, const std::vector<std::string>& files, const std::vector<std::string>& labels) {
  std::vector<model::StudyRun> runs;
  for (size_t i = 0; i < files.size(); ++i) {
    judge::ResultFile f = judge::read_result_file(files[i]);
    const std::string label = i < labels.size() ? labels[i] : f.transport;
    runs.push_back({label, std::move(f)});
  }
  model::Study study = model::build_study(runs, c.compute());
  for (const std::string& s : c.skipped) study.notes.push_back("skipped " + s);
  std::cout << model::study_text(study) << std::flush;
  const std::string dir = c.out_dir + "/";
  write_file_atomically(dir + "study.json", model::study_json(study));
  report::ReportInput in;
  in.title = "ccbench study";
  for (const model::StudyRun& r : runs) in.files.push_back(r.file);
  in.lead_html = model::study_html(study);
  in.lead_markdown = model::study_markdown(study);
  in.extra_plots.push_back(model::study_bars(study));
  in.extra_plots.push_back(model::study_busbw(runs));
  report::ReportOutput out = report::build_report(in);
  write_file_atomically(dir + "index.html", out.html);
  write_file_atomically(dir + "summary.md", out.markdown);
  for (const auto& [name, contents] : out.files) write_file_atomically(dir + name, contents);
  std::cout << "# study " << c.out_dir << ": study.json, index.html, summary.md and " << out.files.size() / 2 << " plot(s)\n";
  if (out.plot_error.empty()) return 0;
  print_line_to_stderr("error: " + out.plot_error + " (the study is written without plots)");
  return 2;
}

int run_study_rank(const StudyCommand& c) {
  const LaunchInfo info = detect_launch(process_env());
  StudyCommand here = c;
  prepare_study(here, info.rank == 0);
  std::vector<std::string> files;
  int port_offset = 0;
  for (const std::string& t : here.transport_list()) {
    const bool skipped = std::any_of(here.skipped.begin(), here.skipped.end(), [&](const std::string& s) { return s.starts_with(t + ":"); });
    if (skipped) continue;
    RunCommand run = here.base;
    run.transport.name = t;
    run.json_path = result_path(here, t);
    LaunchInfo job = info;
    job.master_port = info.master_port + port_offset++;  // a fresh store: no rank meets the last job's
    if (info.rank == 0) std::cout << "# study: " << t << "\n" << std::flush;
    // A failed job (its error is said, its record kept) ends the study: the next job
    // would wait out its timeout on a peer that is gone.
    if (const int ran = run_rank(run, job); ran != 0) return ran;
    files.push_back(run.json_path);
  }
  if (info.rank != 0) return 0;
  return write_study(here, files, {});
}

}  // namespace ccb::cli
