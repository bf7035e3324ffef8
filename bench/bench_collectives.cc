// Google Benchmark drivers for the collectives: one benchmark per (collective,
// algorithm, transport) and size, and per profile entry, plus a "step" benchmark per
// profile. Every rank runs the same benchmarks with a fixed iteration count; each
// iteration's manual time is the slowest rank's, and only rank 0 reports. The
// counters: algbw/busbw (GB/s), p50/p95/p99 (us), link and NIC-counter utilization
// (%, -1 without a line rate), CPU (% of a core, mean over ranks) and wrong elements.
//
//   ccbench launch --np 4 -- bench_collectives --benchmark_format=json
//   bench_collectives --np 4 --profile llama2-7b:tp --benchmark_out=r.json
//   mpirun -np 4 bench_collectives --transport verbs
#include <benchmark/benchmark.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <sstream>

#include "algo/communicator.h"
#include "bootstrap/launch_env.h"
#include "bootstrap/local_launcher.h"
#include "core/error.h"
#include "core/reduce.h"
#include "job/number_flags.h"
#include "job/preflight.h"
#include "job/rank_job.h"
#include "job/transport_flags.h"
#include "job/launch_or_run.h"
#include "metrics/link_utilization.h"
#include "profiles/profile.h"
#include "runner/result_record.h"
#include "runner/step_runner.h"
#include "runner/transport_factory.h"

namespace {

struct BenchOptions {
  int np = 1;
  std::string sizes = "64K,1M,25M,64M";
  std::vector<std::string> profiles;
  std::string collectives = "allreduce,reduce_scatter,all_gather";
  std::string algos = "ring,tree";
  std::string dtype = "float";
  int iters = 20, warmup = 3;
  std::string line_rate;
  double timeout_s = 60;
  int spin_us = 50;
  bool spin_given = false;  // --spin-us given: kept even when ranks outnumber the CPUs
  ccb::TransportChoice transport;
};

// What every benchmark of this rank shares: the job, and the measured means (slowest
// rank, us) a profile's step benchmark adds up.
struct BenchJob {
  const BenchOptions& opt;
  ccb::Bootstrap& boot;
  ccb::Communicator& comm;
  std::map<std::string, double> mean_us;  // benchmark name -> mean slowest-rank time
};

// The runner times the agreed number of iterations back to back, as nccl-tests does,
// and combines the ranks; the loop below then gives Google Benchmark each iteration's
// slowest-rank time. Synchronising the ranks inside the loop instead would add the
// agreement's skew to every iteration.
void measure(benchmark::State& state, BenchJob& job, ccb::CollectiveRunner& runner, uint64_t bytes,
             const std::string& name) {
  ccb::SizeResult r = runner.run(bytes);
  size_t i = 0;
  for (auto _ : state) state.SetIterationTime(r.iter_max_us.at(i++) * 1e-6);
  job.mean_us[name] = r.time_us;
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
  state.counters["algbw_GBps"] = r.algbw_gbps;
  state.counters["busbw_GBps"] = r.busbw_gbps;
  state.counters["p50_us"] = r.latency_us.p50;
  state.counters["p95_us"] = r.latency_us.p95;
  state.counters["p99_us"] = r.latency_us.p99;
  state.counters["cpu_pct"] = r.cpu_pct_mean;
  state.counters["wrong"] = static_cast<double>(r.wrong);
  // Without a line rate or a counter there is no utilization: -1 says so in the JSON.
  state.counters["link_util_pct"] = r.link_util_pct.value_or(-1);
  state.counters["counter_util_pct"] = r.counter_util_pct.value_or(-1);
  if (r.wrong > 0) state.SkipWithError("wrong results: the collective is broken");
}

// The driver's settings for one collective, type and (where the collective has it) algorithm.
ccb::RunOptions options_for(const BenchOptions& b, ccb::CollectiveKind c, ccb::Algorithm a, ccb::DataType t) {
  ccb::RunOptions o;
  o.algorithm = a;
  o.line_rate_gbps = b.line_rate.empty() ? 0 : ccb::parse_line_rate(b.line_rate);
  o.iters = b.iters;
  o.warmup = b.warmup;
  return ccb::for_collective(o, c, t);
}

std::vector<std::string> split(const std::string& csv) {
  std::vector<std::string> out;
  std::stringstream in(csv);
  for (std::string s; std::getline(in, s, ',');) out.push_back(s);
  return out;
}

void register_sweeps(BenchJob& job) {
  const std::string transport(job.comm.transport().name());
  for (const std::string& cname : split(job.opt.collectives))
    for (const std::string& aname : split(job.opt.algos)) {
      auto c = ccb::find_collective(cname).kind;
      auto a = ccb::parse_algorithm(aname);
      if (!ccb::describe(c).supports(a)) continue;  // tree is AllReduce's only
      ccb::RunOptions o = options_for(job.opt, c, a, ccb::parse_dtype(job.opt.dtype));
      for (uint64_t bytes : ccb::parse_byte_list(job.opt.sizes)) {
        bytes = ccb::padded_bytes(c, o.dtype, job.comm.size(), bytes);
        std::string name = cname + "/" + aname + "/" + transport + "/" + std::to_string(bytes);
        benchmark::RegisterBenchmark(name.c_str(), [&job, o, bytes, name](benchmark::State& st) {
          ccb::CollectiveRunner runner(job.comm, job.boot, o);
          measure(st, job, runner, bytes, name);
        })->UseManualTime()->Iterations(job.opt.iters)->Unit(benchmark::kMicrosecond);
      }
    }
}

// Per entry a benchmark, then "<profile>/step/<algo>/<transport>": one iteration whose
// time is the step's communication, sum of count x mean over the entries.
void register_profile(BenchJob& job, const ccb::Profile& p, ccb::Algorithm a) {
  const std::string transport(job.comm.transport().name());
  const std::string aname(ccb::algorithm_name(a));
  std::vector<std::pair<std::string, uint64_t>> entries;  // benchmark name, calls per step
  for (const ccb::ProfileEntry& e : p.entries) {
    ccb::RunOptions o = options_for(job.opt, e.op, a, e.dtype);
    uint64_t bytes = ccb::padded_bytes(e.op, e.dtype, job.comm.size(), e.bytes);
    std::string name = p.name + "/" + std::string(ccb::collective_name(e.op)) + "/" +
                       std::string(ccb::algorithm_name(o.algorithm)) + "/" + transport + "/" + std::to_string(bytes);
    entries.emplace_back(name, e.count);
    benchmark::RegisterBenchmark(name.c_str(), [&job, o, bytes, name, count = e.count](benchmark::State& st) {
      ccb::CollectiveRunner runner(job.comm, job.boot, o);
      measure(st, job, runner, bytes, name);
      st.counters["calls_per_step"] = static_cast<double>(count);
    })->UseManualTime()->Iterations(job.opt.iters)->Unit(benchmark::kMicrosecond);
  }
  std::string step = p.name + "/step/" + aname + "/" + transport;
  benchmark::RegisterBenchmark(step.c_str(), [&job, entries](benchmark::State& st) {
    double step_us = 0;
    bool complete = true;
    for (const auto& [name, count] : entries) {
      auto it = job.mean_us.find(name);
      if (it == job.mean_us.end()) complete = false;
      else step_us += static_cast<double>(count) * it->second;
    }
    for (auto _ : st) st.SetIterationTime(step_us * 1e-6);
    st.counters["step_ms"] = step_us / 1e3;
    if (!complete) st.SkipWithError("filtered out some entries of this profile: run them too for a step time");
  })->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
}

// Rank 0 reports; the others measure in silence.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

void add_options(CLI::App& app, BenchOptions& o) {
  app.add_option("--np", o.np, "Ranks to start on this host when not launched")->check(CLI::Range(1, 1024));
  app.add_option("--sizes", o.sizes, "Sizes of the sweep benchmarks")->capture_default_str();
  app.add_option("--profile", o.profiles, "LLM profile NAME[:ddp|tp|fsdp]; repeatable");
  app.add_option("--collectives", o.collectives, "Collectives of the sweep")->capture_default_str();
  app.add_option("--algo", o.algos, "ring, tree or ring,tree")->capture_default_str();
  app.add_option("-d,--dtype", o.dtype, "Element type of the sweep")->capture_default_str();
  app.add_option("--iters", o.iters, "Iterations of every benchmark, the same on every rank")->check(CLI::Range(1, 1000000));
  app.add_option("--warmup", o.warmup, "Untimed calls before each benchmark")->check(CLI::Range(0, 1000000));
  app.add_option("--line-rate", o.line_rate, "Link rate in bit/s (100G) when the NIC reports none");
  ccb::add_transport_flags(app, o.transport);
  app.add_option("--spin-us", o.spin_us, "Busy-poll this long before sleeping")->check(CLI::Range(0, 1000000));
  app.add_option("--timeout", o.timeout_s, "Seconds before a silent peer is declared gone")->check(ccb::timeout_seconds());
}

// What every rank must run alike, for the store to check (store_hello.h).
ccb::bootstrap::JobFingerprint fingerprint(const BenchOptions& o, int world_size) {
  ccb::bootstrap::JobFingerprint f;
  using ccb::bootstrap::add_field;
  add_field(f, "ccbench", std::string(ccb::kCcbenchVersion) + " bench_collectives");
  add_field(f, "world size", std::to_string(world_size));
  add_field(f, "--transport", o.transport.name);
  add_field(f, "--sizes", o.sizes);
  add_field(f, "--collectives", o.collectives);
  add_field(f, "--algo", o.algos);
  add_field(f, "-d", o.dtype);
  std::string profiles;
  for (const std::string& p : o.profiles) profiles += (profiles.empty() ? "" : ",") + p;
  add_field(f, "--profile", profiles);
  add_field(f, "--iters", std::to_string(o.iters));
  add_field(f, "--warmup", std::to_string(o.warmup));
  add_field(f, "--benchmark_filter", benchmark::GetBenchmarkFilter());
  add_field(f, o.transport.name == "verbs" ? "--qps" : "--tcp-streams",
            std::to_string(o.transport.name == "verbs" ? o.transport.verbs.qps : o.transport.tcp.streams));
  return f;
}

void add_context(ccb::RankContext& rank, const BenchOptions& opt) {
  ccb::LinkInfo link = rank.transport.link();
  ccb::MachineInfo machine = ccb::probe_machine();
  benchmark::AddCustomContext("ccbench_version", ccb::kCcbenchVersion);
  benchmark::AddCustomContext("ccbench_kernel", machine.kernel);
  benchmark::AddCustomContext("ccbench_cpu", machine.cpu_model);
  benchmark::AddCustomContext("ccbench_transport", rank.transport.describe());
  benchmark::AddCustomContext("ccbench_ranks", std::to_string(rank.boot.size()));
  benchmark::AddCustomContext("ccbench_bootstrap", rank.boot.name());
  benchmark::AddCustomContext("ccbench_nic", link.nic + (link.firmware.empty() ? "" : " fw " + link.firmware));
  const double rate = opt.line_rate.empty() ? link.line_rate_gbps : ccb::parse_line_rate(opt.line_rate);
  benchmark::AddCustomContext("ccbench_line_rate_gbps", std::to_string(rate));
  benchmark::AddCustomContext("ccbench_dtype", opt.dtype);
  benchmark::AddCustomContext("ccbench_reduce_isa", std::string(ccb::isa_name(ccb::active_isa())));
}

int run_rank(const BenchOptions& opt) {
  ccb::LaunchInfo info = ccb::detect_launch(ccb::process_env());
  ccb::check_fd_budget(opt.transport, info.world_size);
  ccb::JobSettings settings{opt.transport, std::chrono::milliseconds(static_cast<long long>(opt.timeout_s * 1000)),
                            std::chrono::microseconds(opt.spin_us), fingerprint(opt, info.world_size)};
  return ccb::run_as_rank(info, settings, [&](ccb::RankContext& rank) {
    BenchJob job{opt, rank.boot, rank.comm, {}};
    register_sweeps(job);
    for (const std::string& spec : opt.profiles) {
      ccb::Profile p = ccb::resolve_profile(spec);
      for (const std::string& a : split(opt.algos)) register_profile(job, p, ccb::parse_algorithm(a));
    }
    add_context(rank, opt);
    SilentReporter silent;
    size_t ran = rank.boot.rank() == 0 ? benchmark::RunSpecifiedBenchmarks() : benchmark::RunSpecifiedBenchmarks(&silent);
    rank.boot.barrier();
    // A nightly job that measured nothing must not pass.
    if (ran == 0)
      ccb::throw_invalid("--benchmark_filter '" + benchmark::GetBenchmarkFilter() +
                         "' matches no benchmark: see --benchmark_list_tests");
    return 0;
  });
}

// Google Benchmark takes the filter as a regular expression, with a leading '-' to
// negate it; one that does not compile would run nothing and exit 0.
void check_filter() {
  std::string filter = benchmark::GetBenchmarkFilter();
  if (filter.starts_with('-')) filter.erase(0, 1);
  try {
    std::regex check(filter, std::regex::extended);
  } catch (const std::regex_error& e) {
    ccb::throw_invalid("--benchmark_filter '" + benchmark::GetBenchmarkFilter() + "' is not a regular expression (" +
                       e.what() + ")");
  }
}

// Everything that can be judged before any rank starts.
void preflight(const BenchOptions& opt, int world_size) {
  check_filter();
  uint64_t largest = 0;
  for (uint64_t b : ccb::parse_byte_list(opt.sizes)) largest = std::max(largest, b);
  for (const std::string& p : opt.profiles)
    for (const ccb::ProfileEntry& e : ccb::resolve_profile(p).entries) largest = std::max(largest, e.bytes);
  for (const std::string& c : split(opt.collectives))
    if (ccb::find_collective(c).uneven)
      throw ccb::Error(ccb::ErrorKind::kInvalidArgument, "bench_collectives does not run " + c + " (it needs --splits): use ccbench run");
  for (const std::string& a : split(opt.algos)) ccb::parse_algorithm(a);
  ccb::parse_dtype(opt.dtype);
  if (!opt.line_rate.empty()) ccb::parse_line_rate(opt.line_rate);
  ccb::check_memory_fits(largest, world_size);
  ccb::check_transport_here(opt.transport);
  ccb::check_fd_budget(opt.transport, world_size);
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> original(argv, argv + argc);
  // Only rank 0 may write --benchmark_out: the others would race it for the file.
  int rank = 0;
  try {
    rank = ccb::detect_launch(ccb::process_env()).rank;
  } catch (const std::exception&) {
    // a bad launch environment is reported once the rank starts
  }
  std::vector<char*> args(argv, argv + argc);
  if (rank != 0)
    std::erase_if(args, [](char* a) { return std::strncmp(a, "--benchmark_out", 15) == 0; });
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  BenchOptions opt;
  CLI::App app{"ccbench collective benchmarks (Google Benchmark); --benchmark_* flags are Google Benchmark's"};
  ccb::one_line_errors(app, "bench_collectives");
  add_options(app, opt);
  try {
    app.parse(n, args.data());
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    ccb::check_transport_flags(app, opt.transport.name);
    opt.spin_given = app.count("--spin-us") > 0;
    return ccb::launch_or_run({opt.np, original, opt.spin_given, false}, [&opt] { preflight(opt, opt.np); },
                              [&opt] { return run_rank(opt); });
  } catch (const std::exception& e) {
    return ccb::report_error(e);
  }
}
