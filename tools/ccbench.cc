// ccbench: collective-communication benchmarks for the networks LLM training runs on.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "bootstrap/launch_env.h"
#include "bootstrap/local_launcher.h"
#include "baseline_command.h"
#include "check_command.h"
#include "compare_command.h"
#include "fabric_command.h"
#include "history_command.h"
#include "model_command.h"
#include "report_command.h"
#include "core/error.h"
#include "job/number_flags.h"
#include "job/launch_or_run.h"
#include "job/preflight.h"
#include "job/transport_flags.h"
#include "p2p_command.h"
#include "qualify_command.h"
#include "scan_command.h"
#include "study_command.h"
#include "profile_listing.h"
#include "run_command.h"
#include "run_hier.h"
#include "help_text.h"
#include "unknown_words.h"

namespace {

void add_run_options(CLI::App& run, ccb::cli::RunCommand& c) {
  run.add_option("-b,--minbytes", c.min_bytes, "Smallest size (8, 64K, 1M...)");
  run.add_option("-e,--maxbytes", c.max_bytes, "Largest size");
  run.add_option("-f,--stepfactor", c.step_factor, "Size multiplier between -b and -e")->check(ccb::finite_in(1, 1e6))->capture_default_str();
  run.add_option("--sizes", c.sizes, "Explicit size list, e.g. 1M,25M,64M (default: an LLM list 8 B..64 MiB)");
  run.add_option("-d,--dtype", c.dtype, ccb::cli::dtype_names())->capture_default_str();
  run.add_option("-o,--op", c.op, "The reduction: " + ccb::cli::op_names())->capture_default_str();
  run.add_option("--algo", c.algos,
                 "auto (per size and world size, from the shipped table or --tune, hier among them when the ranks span hosts of "
                 "several ranks each; the algo column says which ran), ring, tree, rd (recursive doubling), hier (allreduce, "
                 "reduce_scatter, all_gather and broadcast in two levels: within each host, then across hosts, each local rank "
                 "with its peers), or a list of them to compare")
      ->capture_default_str();
  ccb::cli::add_host_level_options(run, c);
  run.add_flag("--tune", c.tune, "with --algo auto: time every algorithm at each size at start-up and run the fastest");
  run.add_option("--collective", c.collective, ccb::cli::collective_names())->capture_default_str();
  run.add_option("--root", c.root, "broadcast, reduce, gather and scatter: the root rank")->capture_default_str();
  run.add_option("--peer-map", c.peer_map,
                 "send_recv: rank r sends to the r-th entry, a permutation of the ranks (default: r+1)");
  run.add_option("--splits", c.splits,
                 "all_to_allv: a file of ranks x ranks byte counts (rows send, columns receive; equal row sums), "
                 "or moe:skew=S,seed=N (tokens routed to experts by a Zipf law)");
  run.add_option("-n,--iters", c.iters, "Timed iterations per size (0: 1 GiB / size, 5..1000)")->check(CLI::Range(0, 100000000));
  run.add_option("-w,--warmup", c.warmup, "Warm-up iterations per size (default iters/10, 2..20)")->check(CLI::Range(-1, 1000000));
  run.add_option("-c,--check", c.check, "Check results (1) or not (0)")->check(CLI::Range(0, 1))->capture_default_str();
  run.add_flag("--in-place", c.in_place, "Run in place (send buffer == receive buffer)");
  run.add_flag("--debug", c.debug, "Trace each rank's connections, posts and failed requests to stderr (CCB_DEBUG=PATH: to PATH.RANK)");
  run.add_option("--np", c.np, "Ranks to start on this host (local launcher)")->check(CLI::Range(1, 1024))->capture_default_str();
  run.add_flag("--bind-cores", c.bind_cores, "Pin rank r to CPU r (local launcher)");
  run.add_flag("--bind-numa", c.bind_numa, "Run every rank on the CPUs of its NIC's NUMA node (any launcher)");
  run.add_option("--timeout", c.timeout_s, "Seconds before a silent peer is declared gone")->check(ccb::timeout_seconds())->capture_default_str();
  run.add_option("--spin-us", c.spin_us, "Busy-poll this long before sleeping in epoll")->check(CLI::Range(0, 1000000))->capture_default_str();
  run.add_option("--chunk-bytes", c.chunk_bytes, "Pipeline chunk size")->capture_default_str();
  run.add_option("--slots", c.slots, "Chunks received ahead")->check(CLI::Range(1, 64))->capture_default_str();
  run.add_option("--profile", c.profiles, "LLM step to measure: NAME[:" + ccb::cli::mode_names() + "] (a preset, see --list-profiles, or a model .json); repeatable")->group("Profiles");
  run.add_option("--trace", c.trace, "Replay a collective trace (JSON lines of {op, bytes, dtype}) in order")->group("Profiles");
  run.add_option("--parallel", c.parallel, "Run --profile MODEL as a 3D-parallel job: tp=T,pp=P,dp=D (Megatron's rank order); each group on its own connections, one kind at a time and all at once")->group("Profiles");
  run.add_option("--trace-passes", c.trace_passes, "Timed passes over a replayed step (--trace, --parallel)")->check(CLI::Range(1, 1000000))->capture_default_str()->group("Profiles");
  run.add_option("--repeat", c.repeat, "Passes over the sizes (or profile, or trace); the JSON keeps each, and their median and 95% CI")->check(CLI::Range(1, 10000))->capture_default_str()->group("Repetitions");
  run.add_flag("--shuffle", c.shuffle, "Run each pass's sizes in a random order (the seed is recorded)")->group("Repetitions");
  run.add_option("--seed", c.seed, "The --shuffle order's seed, to repeat a run's order")->group("Repetitions");
  run.add_option("--duration", c.duration, "Soak: call the sizes over and over this long (90s, 30m, 8h), checking every call")->group("Soak");
  run.add_option("--interval", c.interval_s, "Soak: seconds between progress lines and record rewrites")->capture_default_str()->group("Soak");
  run.add_flag("--hops", c.hops, "Time each hop of a ring (message by message, clocks aligned) and name the slowest")->group("Output");
  run.add_option("--hop-factor", c.hop_factor, "--hops: a slowest hop above this multiple of the median hop is a straggler")->check(ccb::finite_in(1, 1000))->capture_default_str()->group("Output");
  run.add_flag("--samples", c.samples, "Keep every iteration's time (the slowest rank's) in the JSON")->group("Repetitions");
  run.add_option("--rules", c.rules, "Judge the run by these rules at its end (YAML; exit 1 when one fails)")->group("Rules");
  run.add_option("--baseline", c.rules_baseline, "The baseline for rules that bound a change")->group("Rules");
  run.add_option("--retries", c.retries, "Measure failing sizes again, up to this many times, before a rule fails")->check(CLI::Range(0, 100))->group("Rules");
  run.add_option("--junit", c.rules_junit, "Write the rules' verdicts as JUnit XML")->group("Rules");
  run.add_option("--json", c.json_path, "Write results as JSON (rewritten atomically after each size)")->group("Output");
  run.add_option("--csv", c.csv_path, "Write results as CSV (rewritten atomically after each size)")->group("Output");
  run.add_option("--plot", c.plot_path, "Draw the bus bandwidth against size into this .svg or .png at the end (gnuplot)")->group("Output");
  run.add_option("--socket-buffer", c.socket_buffer, "SO_SNDBUF/SO_RCVBUF size (0: kernel autotuning)")->capture_default_str()->group("TCP");
  run.add_option("--line-rate", c.line_rate, "Link rate in bit/s for utilization (100G, 2.5G); default: what the NIC reports")->group("Output");
}

// An output flag given an empty name would silently write nothing.
void check_output_names(const CLI::App& run, const ccb::cli::RunCommand& c) {
  for (const auto& [flag, path] : {std::pair{"--json", &c.json_path}, std::pair{"--csv", &c.csv_path},
                                   std::pair{"--plot", &c.plot_path}, std::pair{"--junit", &c.rules_junit}})
    if (run.count(flag) > 0 && path->empty()) ccb::throw_invalid(std::string(flag) + " needs a file name, not an empty string");
}

int run_main(ccb::cli::RunCommand& c, bool np_given, bool spin_given, const std::vector<std::string>& argv) {
  c.np_given = np_given;
  c.argv = argv;
  if (c.debug) setenv("CCB_DEBUG", "1", 0);  // before any transport; CCB_DEBUG=PATH given by hand wins
  c.transport.tcp.socket_buffer = ccb::cli::parse_socket_buffer(c.socket_buffer);
  auto preflight = [&c] {
    c.validate(c.np, c.np, true);
    ccb::check_transport_here(c.transport);
    ccb::check_fd_budget(c.transport, c.np);
    if (c.bind_numa) ccb::check_bind_numa_here(c.transport);
  };
  return ccb::launch_or_run({c.np, argv, spin_given, c.bind_cores}, preflight, [&c] { return ccb::cli::run_rank(c); });
}

int scan_main(const CLI::App& app, ccb::cli::ScanCommand& c, const std::vector<std::string>& argv) {
  if (c.dry_run) return ccb::cli::run_scan_dry_run(c);
  ccb::check_transport_flags(app, c.base.transport.name);
  c.base.argv = argv;
  c.base.transport.tcp.socket_buffer = ccb::cli::parse_socket_buffer(c.base.socket_buffer);
  auto preflight = [&c] {
    ccb::cli::validate_scan(c, c.base.np, true);
    ccb::check_transport_here(c.base.transport);
    ccb::check_fd_budget(c.base.transport, c.base.np);
  };
  return ccb::launch_or_run({c.base.np, argv, app.count("--spin-us") > 0, false}, preflight,
                            [&c] { return ccb::cli::run_scan_rank(c); });
}

int qualify_main(const CLI::App& app, ccb::cli::QualifyCommand& c, const std::vector<std::string>& argv) {
  c.base.argv = argv;
  c.base.transport.tcp.socket_buffer = ccb::cli::parse_socket_buffer(c.base.socket_buffer);
  auto preflight = [&app, &c] {
    ccb::cli::prepare_qualify(app, c, c.base.np, true);
    ccb::check_transport_flags(app, c.base.transport.name);
    ccb::check_transport_here(c.base.transport);
    ccb::check_fd_budget(c.base.transport, c.base.np);
  };
  auto rank = [&app, &c] {
    const ccb::LaunchInfo info = ccb::detect_launch(ccb::process_env());
    ccb::cli::prepare_qualify(app, c, info.world_size, info.rank == 0);
    return ccb::cli::run_qualify_rank(c);
  };
  return ccb::launch_or_run({c.base.np, argv, app.count("--spin-us") > 0, false}, preflight, rank);
}

int study_main(const CLI::App& app, ccb::cli::StudyCommand& c, const std::vector<std::string>& argv) {
  c.base.argv = argv;
  if (!c.transports.empty()) ccb::check_transport_flags(app, c.transport_list());
  if (!c.from.empty() || c.transports.empty()) {
    ccb::cli::prepare_study(c, true);  // --from, or the error naming both ways
    return ccb::cli::write_study(c, c.from, c.labels);
  }
  auto preflight = [&c] {
    ccb::cli::prepare_study(c, true);
    for (const std::string& t : c.transport_list()) {
      ccb::cli::RunCommand probe = c.base;
      probe.transport.name = t;
      probe.validate(c.base.np, c.base.np, false);
      ccb::check_fd_budget(probe.transport, c.base.np);
    }
  };
  return ccb::launch_or_run({c.base.np, argv, app.count("--spin-us") > 0, false}, preflight,
                            [&c] { return ccb::cli::run_study_rank(c); });
}

// `ccbench` alone is a mistake (exit 2) that teaches; `ccbench help [SUBCOMMAND]` is a question.
int help_main(const CLI::App& app, const std::vector<std::string>& words) {
  if (words.size() <= 2) {
    std::cout << ccb::cli::short_usage(app);
    return words.size() == 1 ? 2 : 0;
  }
  std::vector<std::string> names;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (s->get_name() == words[2]) {
      std::cout << s->help();
      return 0;
    }
    names.push_back(s->get_name());
  }
  {
    const std::optional<std::string> near = ccb::cli::nearest_word(words[2], names);
    std::cerr << "ccbench: error: unknown subcommand '" << words[2] << "'" << (near ? ": did you mean '" + *near + "'?" : "") << "\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"ccbench: collective-communication benchmarks for LLM training networks"};
  app.set_version_flag("--version", "ccbench 0.1.0");
  ccb::one_line_errors(app, "ccbench");
  app.require_subcommand(1);
  ccb::cli::RunCommand run_cmd;
  CLI::App* run = app.add_subcommand("run", "Run a collective over a range of sizes and print a table");
  add_run_options(*run, run_cmd);
  ccb::add_transport_flags(*run, run_cmd.transport);
  bool list_profiles = false;
  run->add_flag("--list-profiles", list_profiles, "Show each preset's (or --profile's) derived collectives and exit")->group("Profiles");
  ccb::cli::RunCommand p2p_cmd;
  ccb::cli::P2pTest p2p_test;
  CLI::App* p2p = app.add_subcommand("p2p", "Point-to-point bandwidth, bidirectional bandwidth or latency between 2 ranks (perftest's tests, any transport)");
  ccb::cli::add_p2p_options(*p2p, p2p_cmd, p2p_test);
  ccb::add_transport_flags(*p2p, p2p_cmd.transport);
  ccb::cli::ScanCommand scan_cmd;
  scan_cmd.base.np = 2;
  CLI::App* scan = app.add_subcommand("scan", "Pairwise bandwidth and latency between every pair of hosts; names a slow host or cable");
  ccb::cli::add_scan_options(*scan, scan_cmd);
  ccb::add_transport_flags(*scan, scan_cmd.base.transport);
  ccb::cli::QualifyCommand qualify_cmd;
  qualify_cmd.base.np = 2;
  CLI::App* qualify = app.add_subcommand("qualify", "Run a qualification spec's battery and judge it: exit 0 pass, 1 fail, 2 bad spec");
  ccb::cli::add_qualify_options(*qualify, qualify_cmd);
  ccb::add_transport_flags(*qualify, qualify_cmd.base.transport);
  ccb::cli::StudyCommand study_cmd;
  CLI::App* study = app.add_subcommand("study", "The seed papers' study: LLM profiles over several transports in one table, with plots and a report");
  ccb::cli::add_study_options(*study, study_cmd);
  ccb::add_transport_flags(*study, study_cmd.base.transport);
  ccb::LocalLaunch launch_plan;
  double launch_timeout = std::chrono::duration<double>(launch_plan.grace).count();
  CLI::App* launch = app.add_subcommand("launch", "Start N ranks of any program on this host with CCB_* set (like torchrun)");
  launch->add_option("--np", launch_plan.np, "Ranks to start")->check(CLI::Range(1, 1024))->capture_default_str();
  launch->add_option("--timeout", launch_timeout, "Seconds the other ranks get to report after one fails")->check(ccb::finite_in(0, 3600))->capture_default_str();
  launch->add_option("command", launch_plan.argv, "Program and its arguments (after --)")->required();
  // The judging subcommands: one row each.
  std::vector<std::unique_ptr<ccb::cli::Subcommand>> judging;
  judging.push_back(std::make_unique<ccb::cli::CompareCommand>());
  judging.push_back(std::make_unique<ccb::cli::BaselineCommand>());
  judging.push_back(std::make_unique<ccb::cli::CheckCommand>());
  judging.push_back(std::make_unique<ccb::cli::ReportCommand>());
  judging.push_back(std::make_unique<ccb::cli::HistoryCommand>());
  judging.push_back(std::make_unique<ccb::cli::ModelCommand>());
  judging.push_back(std::make_unique<ccb::cli::FabricCommand>());
  std::vector<std::pair<CLI::App*, ccb::cli::Subcommand*>> judging_apps;
  for (auto& command : judging) {
    CLI::App* sub = app.add_subcommand(command->name(), command->summary());
    command->add_options(*sub);
    judging_apps.emplace_back(sub, command.get());
  }
  study->remove_option(study->get_option("--transport"));  // study measures --transports, each in turn
  ccb::cli::add_help_footers(app);
  const std::vector<std::string> words(argv, argv + argc);
  if (words.size() == 1 || words[1] == "help") return help_main(app, words);
  if (const std::optional<std::string> unknown = ccb::cli::unknown_word(app, words)) {
    std::cerr << "ccbench: error: " << *unknown << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError&) {
    std::cerr << "ccbench: error: " << ccb::cli::unexpected_words(app, words) << " (see --help)\n";
    return 2;
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    for (auto& [sub, command] : judging_apps)
      if (sub->parsed()) return command->run(*sub);
    if (launch->parsed()) {
      launch_plan.program = launch_plan.argv.front();
      launch_plan.grace = std::chrono::milliseconds(static_cast<long long>(launch_timeout * 1000));
      return ccb::run_local_job(launch_plan);
    }
    if (list_profiles && !run_cmd.parallel.empty()) return ccb::cli::list_parallel(std::cout, run_cmd);
    if (list_profiles) return ccb::cli::list_profiles(std::cout, run_cmd.profiles);
    if (qualify->parsed()) return qualify_main(*qualify, qualify_cmd, std::vector<std::string>(argv, argv + argc));
    if (study->parsed()) return study_main(*study, study_cmd, std::vector<std::string>(argv, argv + argc));
    if (scan->parsed()) return scan_main(*scan, scan_cmd, std::vector<std::string>(argv, argv + argc));
    if (p2p->parsed()) {
      ccb::cli::apply_p2p_test(*p2p, p2p_test, p2p_cmd);
      ccb::check_transport_flags(*p2p, p2p_cmd.transport.name);
      check_output_names(*p2p, p2p_cmd);
      return run_main(p2p_cmd, p2p->count("--np") > 0, p2p->count("--spin-us") > 0, std::vector<std::string>(argv, argv + argc));
    }
    ccb::check_transport_flags(*run, run_cmd.transport.name);
    check_output_names(*run, run_cmd);
    std::vector<std::string> args(argv, argv + argc);
    return run_main(run_cmd, run->count("--np") > 0, run->count("--spin-us") > 0, args);
  } catch (const std::exception& e) {
    return ccb::report_error(e);
  }
}
