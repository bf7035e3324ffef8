#include "run_command.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <sstream>

#include "algo/communicator.h"
#include "core/error.h"
#include "core/reduce.h"
#include "core/units.h"
#include "job/host_labels.h"
#include "job/preflight.h"
#include "job/rank_job.h"
#include "metrics/link_utilization.h"
#include "profiles/trace.h"
#include "runner/result_record.h"
#include "report_command.h"
#include "run_hier.h"
#include "run_parallel.h"
#include "run_rules.h"
#include "run_soak.h"
#include "transport_sweep.h"
#include "runner/hop_report.h"
#include "runner/pass_order.h"
#include "runner/result_table.h"
#include "runner/step_runner.h"
#include "transport/ipoib/ipoib_interface.h"

namespace ccb::cli {

// The default list: latency, then message sizes of LLM training (DDP's first 1 MiB
// bucket and 25 MiB buckets, tensor-parallel activations of 16-64 MiB).
static const char* kLlmSizes = "8,64K,1M,4M,16M,25M,64M";
static constexpr size_t kMaxSizes = 1000;
static constexpr size_t kMaxPeerMapEntries = 1 << 20;  // more entries than any world can have

std::vector<uint64_t> RunCommand::size_list() const {
  if (!sizes.empty()) return parse_byte_list(sizes);
  if (!splits.empty() && min_bytes.empty() && max_bytes.empty()) {  // a matrix file sets the size
    const SplitSpec s = parse_split_spec(splits);
    if (!s.routing && !s.bytes.empty()) {
      uint64_t largest = 0;  // a bad file is refused by validate(), naming the problem
      for (const auto& row : s.bytes) {
        uint64_t sum = 0;
        for (int64_t b : row) sum += b > 0 ? static_cast<uint64_t>(b) : 0;
        largest = std::max(largest, sum);
      }
      return {largest};
    }
  }
  if (min_bytes.empty() && max_bytes.empty()) return parse_byte_list(kLlmSizes);
  uint64_t lo = parse_bytes(min_bytes.empty() ? max_bytes : min_bytes);
  uint64_t hi = parse_bytes(max_bytes.empty() ? min_bytes : max_bytes);
  if (lo > hi) throw_invalid("-b (" + format_bytes(lo) + ") is larger than -e (" + format_bytes(hi) + ")");
  if (!std::isfinite(step_factor) || (step_factor <= 1 && lo != hi))
    throw_invalid("-f must be a finite number greater than 1");
  std::vector<uint64_t> out;
  for (double s = static_cast<double>(lo); s <= static_cast<double>(hi) * 1.0000001; s *= step_factor) {
    if (out.size() == kMaxSizes)
      throw_invalid("-b " + min_bytes + " -e " + max_bytes + " -f " + std::to_string(step_factor) + " gives more than " +
                    std::to_string(kMaxSizes) + " sizes: raise -f");
    out.push_back(static_cast<uint64_t>(s));
    if (lo == hi) break;
  }
  return out;
}

std::vector<Algorithm> RunCommand::algorithm_list() const {
  std::vector<Algorithm> out;
  std::stringstream in(algos);
  for (std::string a; std::getline(in, a, ',');) out.push_back(parse_algorithm(a));
  if (out.empty()) throw_invalid("--algo needs auto, ring, tree, rd, hier or a list of the last four");
  if (out.size() > 1 && std::count(out.begin(), out.end(), Algorithm::kAuto) > 0)
    throw_invalid("--algo auto runs one chosen algorithm per size and cannot be listed with others: "
                  "compare algorithms with --algo ring,tree,rd");
  return out;
}

std::vector<int> RunCommand::peer_map_list() const {
  std::vector<int> out;
  std::stringstream in(peer_map);
  for (std::string entry; std::getline(in, entry, ',');) {
    size_t used = 0;
    int rank = -1;
    try {
      rank = std::stoi(entry, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != entry.size() || rank < 0 || out.size() >= kMaxPeerMapEntries)
      throw_invalid("--peer-map '" + peer_map + "' must list one rank number per rank, e.g. --peer-map 1,2,0");
    out.push_back(rank);
  }
  return out;
}

RunOptions RunCommand::run_options(Algorithm a) const {
  RunOptions o;
  o.collective = find_collective(collective).kind;
  o.algorithm = a;
  o.tune = tune;
  o.root = root;
  o.peer_map = peer_map_list();
  if (!splits.empty()) o.splits = std::make_shared<const SplitSpec>(parse_split_spec(splits));
  o.dtype = parse_dtype(dtype);
  o.op = parse_op(op);
  o.iters = iters;
  o.warmup = warmup;
  o.check = check != 0;
  o.in_place = in_place;
  o.chunks = ChunkPolicy{parse_bytes(chunk_bytes), slots};
  o.line_rate_gbps = line_rate.empty() ? 0 : parse_line_rate(line_rate);
  o.window = window;
  o.hops = hops;
  return o;
}

std::vector<Profile> RunCommand::profile_list() const {
  std::vector<Profile> out;
  for (const std::string& p : profiles) out.push_back(resolve_profile(p));
  return out;
}

// `what`: the collective of a sweep; a profile names its own per row.
static std::string title(const RunCommand& c, const RunOptions& o, const Bootstrap& b, const Transport& t,
                         std::string_view what) {
  std::ostringstream s;
  s << "ccbench " << what << " algo=" << algorithm_name(o.algorithm) << " ranks=" << b.size()
    << " bootstrap=" << b.name() << " transport=[" << t.describe() << "] isa=" << isa_name(active_isa())
    << " chunk=" << c.chunk_bytes << " " << (o.in_place ? "in-place" : "out-of-place");
  return s.str();
}

JobInfo job_info(const RunCommand& c, const Bootstrap& b, const Transport& t, const HostLayout& layout) {
  JobInfo j;
  j.layout = layout;
  j.command = c.argv;
  j.machine = probe_machine();
  j.ranks = b.size();
  j.bootstrap = b.name();
  j.transport = std::string(t.name());
  j.transport_settings = t.describe();
  j.memory = c.transport.memory;
  j.link = t.link();
  j.line_rate_gbps = c.line_rate.empty() ? j.link.line_rate_gbps : parse_line_rate(c.line_rate);
  j.line_rate_source = !c.line_rate.empty() ? "--line-rate" : j.line_rate_gbps > 0 ? "link" : "none";
  j.isa = std::string(isa_name(active_isa()));
  j.started_utc = utc_now_iso8601();
  j.repeat = c.repeat;
  j.samples = c.samples;
  j.manifest.governor = read_governor("/");
  j.manifest.rdma_core = read_rdma_core_version("/");
  // Every rail of this host, so the manifest shows which NIC each local rank drives.
  for (const std::string& nic : layout.nics_on_host_of(b.rank())) j.manifest.nics.push_back(read_nic_manifest("/", nic));
  j.warnings = manifest_warnings("/", j.manifest, allowed_cpus());
  return j;
}

// Rank 0 prints and records; every rank measures. With one pass each row is printed as
// it is measured; with several, each measurement's median pass once all have run.
struct Output {
  bool root;
  int repeat;
  ResultTable table;
  ResultRecord record;
  std::vector<std::string> labels;  // --hops: how the slowest hop's ranks are named
  const HostLayout* layout = nullptr;
  bool streaming() const { return root && repeat == 1; }
  void pass_done(int pass) const {
    if (root && repeat > 1) std::cout << "# pass " << pass + 1 << " of " << repeat << " done\n" << std::flush;
  }
};

using Measurement = MeasurementSet::Measurement;

// A repeated run's table: the median pass of every measurement that `belongs`, with
// how many passes it had and their spread; a sweep's rows in size order.
static void print_medians(Output& out, const std::string& title, bool profile, TableColumns columns,
                          const std::function<bool(const Measurement&)>& belongs) {
  std::vector<const Measurement*> rows;
  for (const Measurement& m : out.record.measurements().measurements())
    if (belongs(m)) rows.push_back(&m);
  if (!profile)
    std::stable_sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->row.result.bytes < b->row.result.bytes; });
  out.table.header(title, profile, true, columns);
  for (const Measurement* m : rows) {
    SizeResult r = m->median_pass();
    r.wrong = m->wrong();
    const judge::MedianSummary bw = m->busbw();
    out.table.row(r, m->row.options, m->row.count_per_step, &bw);
  }
  out.table.footer();
}

// --hops: the slowest hop of this size's ring, or why there is none.
static void print_hops(const SizeResult& r, const std::vector<std::string>& labels, double factor) {
  if (r.hop_in_us.empty()) {
    std::cout << "# hops: the " << algorithm_name(r.algorithm) << " algorithm ran no ring at " << format_bytes(r.bytes)
              << ": use --algo ring\n";
    return;
  }
  if (auto h = slowest_hop(r.hop_in_us)) std::cout << "# " << slowest_hop_line(*h, labels, factor) << "\n" << std::flush;
  else std::cout << "# hops: 2 ranks have one pair of hops, nothing to compare\n";
}

static uint64_t run_sweeps(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out,
                           const PassOrder& order) {
  uint64_t wrong = 0;
  const std::vector<uint64_t> sizes = cmd.size_list();
  for (int pass = 0; pass < cmd.repeat; ++pass) {
    for (Algorithm a : cmd.algorithm_list()) {
      RunOptions o = cmd.run_options(a);
      CollectiveRunner runner(comm, boot, o);
      if (out.streaming())
        out.table.header(title(cmd, o, boot, comm.transport(), collective_name(o.collective)), false, false,
                         describe(o.collective).columns);
      for (size_t i : order.indices(sizes.size(), pass)) {
        SizeResult r = runner.run(sizes[i]);
        wrong += r.wrong;
        RunOptions ran = o;
        ran.algorithm = r.algorithm;  // what auto chose for this size
        if (out.streaming()) out.table.row(r, ran);
        if (out.root && cmd.hops) print_hops(r, out.labels, cmd.hop_factor);
        if (out.streaming()) print_hier_legs(r, o.collective, cmd.intra == "shm" ? "shm" : cmd.transport.name, *out.layout);
        if (out.root) out.record.add(ResultRow{ran, r, "", "", 0, "", a == Algorithm::kAuto});
      }
      if (out.streaming()) out.table.footer();
    }
    out.pass_done(pass);
  }
  if (out.root && cmd.repeat > 1)
    for (Algorithm a : cmd.algorithm_list()) {
      RunOptions o = cmd.run_options(a);
      print_medians(out, title(cmd, o, boot, comm.transport(), collective_name(o.collective)), false,
                    describe(o.collective).columns, [a](const Measurement& m) { return a == Algorithm::kAuto || m.row.options.algorithm == a; });
    }
  return wrong;
}

// One profile step with one algorithm, every pass; returns the wrong elements.
static uint64_t run_profile_passes(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out,
                                   const Profile& p, Algorithm a) {
  const std::string algo(algorithm_name(a));
  const RunOptions o = cmd.run_options(a);
  const std::string heading = "profile " + p.name + ": " + p.summary + "\n# " + title(cmd, o, boot, comm.transport(), "profile");
  if (out.streaming()) out.table.header(heading, true);
  uint64_t wrong = 0;
  for (int pass = 0; pass < cmd.repeat; ++pass) {
    double step_us = run_profile(comm, boot, p, o, [&](const ProfileRow& row) {
      wrong += row.result.wrong;
      if (out.streaming()) out.table.row(row.result, row.options, row.entry.count);
      if (out.root) out.record.add(ResultRow{row.options, row.result, p.name, row.entry.what, row.entry.count, algo, false});
    });
    if (out.root)
      out.record.add(StepSummary{"profile", p.name, p.summary, algo, step_us, p.calls_per_step(), p.bytes_per_step(), {}});
    out.pass_done(pass);
  }
  if (!out.root) return wrong;
  if (cmd.repeat == 1) out.table.footer();
  else print_medians(out, heading, true, TableColumns::kCollective, [&](const Measurement& m) { return m.row.profile == p.name && m.row.step_algorithm == algo; });
  for (const MeasurementSet::Step& s : out.record.measurements().steps())
    if (s.summary.kind == "profile" && s.summary.name == p.name && s.summary.algorithm == algo)
      out.table.step_line(p.name + " (" + algo + (cmd.repeat > 1 ? ", median of " + std::to_string(cmd.repeat) + " passes" : "") + ")",
                          s.summary.comm_us);
  return wrong;
}

static uint64_t run_profiles(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out) {
  uint64_t wrong = 0;
  for (const Profile& p : cmd.profile_list())
    for (Algorithm a : cmd.algorithm_list()) wrong += run_profile_passes(cmd, comm, boot, out, p, a);
  return wrong;
}

static void print_trace_line(const RunCommand& cmd, const StepSummary& s, size_t passes, uint64_t wrong) {
  const LatencyStats& t = s.trace_total_us;
  std::ostringstream line;
  line << "# trace " << cmd.trace << ": " << s.calls << " calls, " << format_bytes(s.bytes) << ", algo=" << s.algorithm
       << ", " << t.samples << " timed passes: total p50 " << t.p50 / 1e3 << " ms, min " << t.min / 1e3 << " ms, max "
       << t.max / 1e3 << " ms";
  if (passes > 1) line << " (the median of " << passes << " repetitions)";
  std::cout << line.str() << ", #wrong " << wrong << "\n" << std::flush;
}

static uint64_t run_trace(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out) {
  auto calls = load_trace(cmd.trace);
  uint64_t bytes = 0;
  for (const auto& c : calls) bytes += c.bytes;
  uint64_t wrong = 0;
  for (Algorithm a : cmd.algorithm_list()) {
    const std::string algo(algorithm_name(a));
    uint64_t algo_wrong = 0;
    for (int pass = 0; pass < cmd.repeat; ++pass) {
      TraceResult t = replay_trace(comm, boot, calls, cmd.run_options(a), cmd.trace_passes);
      algo_wrong += t.wrong;
      if (out.root)
        out.record.add(StepSummary{"trace", cmd.trace, std::to_string(t.calls) + " calls replayed in order", algo,
                                   t.total_us.p50, t.calls, bytes, t.total_us});
      out.pass_done(pass);
    }
    wrong += algo_wrong;
    if (!out.root) continue;
    for (const MeasurementSet::Step& s : out.record.measurements().steps())
      if (s.summary.kind == "trace" && s.summary.algorithm == algo)
        print_trace_line(cmd, s.summary, s.passes_us.size(), algo_wrong);
  }
  return wrong;
}

// --retries: one size of a sweep measured again, all its passes; returns wrong elements.
static uint64_t remeasure(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out, Algorithm a,
                          uint64_t bytes) {
  const RunOptions o = cmd.run_options(a);
  CollectiveRunner runner(comm, boot, o);
  SizeResult key;
  key.bytes = bytes;
  if (out.root) out.record.restart(ResultRow{o, key, "", "", 0, "", false});
  uint64_t wrong = 0;
  for (int pass = 0; pass < cmd.repeat; ++pass) {
    SizeResult r = runner.run(bytes);
    wrong += r.wrong;
    if (out.root) out.record.add(ResultRow{o, r, "", "", 0, "", false});
  }
  return wrong;
}

// --shuffle: every rank takes rank 0's seed (--seed, or one drawn now), so all ranks
// run the sizes in the same order.
static PassOrder agree_order(const RunCommand& cmd, Bootstrap& boot) {
  if (!cmd.shuffle) return {};
  const uint64_t mine = cmd.seed ? *cmd.seed : random_seed();
  return PassOrder(std::stoull(boot.allgather(std::to_string(mine)).front()));
}

int run_rank(const RunCommand& cmd) { return run_rank(cmd, detect_launch(process_env())); }

int run_rank(const RunCommand& cmd, const LaunchInfo& info) {
  if (cmd.np_given && info.source != "single" && info.world_size != cmd.np)
    throw_invalid("--np " + std::to_string(cmd.np) + " but the launcher (" + info.source + ") started " +
                  std::to_string(info.world_size) + " ranks: drop --np or make them agree");
  cmd.validate(info.world_size, 1, info.rank == 0);
  check_fd_budget(cmd.transport, info.world_size);
  JobSettings settings{cmd.transport, std::chrono::milliseconds(static_cast<long long>(cmd.timeout_s * 1000)),
                       std::chrono::microseconds(cmd.spin_us), cmd.fingerprint(info.world_size)};
  return run_as_rank(info, settings, [&](RankContext& rank) {
    Communicator& comm = rank.comm;
    Bootstrap& boot = rank.boot;
    const bool root = boot.rank() == 0;
    if (cmd.bind_numa) bind_near_nic(rank.transport.link().nic);
    if (root && cmd.transport.name == "ipoib") {
      const auto& ipoib = cmd.transport.ipoib;
      auto chosen = choose_ipoib_interface(ipoib, rank.settings.transport.tcp.iface);  // on rank 0's rail
      for (const std::string& w : ipoib_warnings(ipoib, chosen, cmd.transport.tcp.socket_buffer))
        print_line_to_stderr("warning: " + w);
    }
    std::unique_ptr<HostLevels> levels = open_host_levels(cmd, rank);
    HierarchyAttached attached(comm, levels.get());
    const PassOrder order = agree_order(cmd, boot);
    JobInfo job = job_info(cmd, boot, rank.transport, rank.layout);
    job.wait = rank.settings.wait_policy();
    // Rank 0 warns about its host; every other rank about where it runs.
    const std::vector<std::string> mine = root ? job.warnings : placement_warnings("/", job.manifest, allowed_cpus());
    for (const std::string& w : mine) print_line_to_stderr("warning: rank " + std::to_string(boot.rank()) + ": " + w);
    if (const std::string rails = rank.layout.rails_text(); root && !rails.empty()) std::cout << "# rails: " << rails << "\n";
    job.shuffle_seed = order.seed();
    Output out{root, cmd.repeat, ResultTable(std::cout),
               ResultRecord(job, root ? cmd.json_path : "", root ? cmd.csv_path : ""), {}};
    if (cmd.hops) out.labels = host_labels(rank.layout);
    out.layout = &rank.layout;
    uint64_t wrong = 0;
    int interrupted = 0;  // a soak stopped by a signal: its status, once the record is kept
    if (!cmd.parallel.empty()) wrong = run_parallel(cmd, rank, root ? &out.record : nullptr);
    else if (!cmd.profiles.empty()) wrong = run_profiles(cmd, comm, boot, out);
    else if (!cmd.trace.empty()) wrong = run_trace(cmd, comm, boot, out);
    else if (!cmd.sweep.empty())
      wrong = run_transport_sweep(cmd, rank, root ? &out.table : nullptr, root ? &out.record : nullptr);
    else if (!cmd.duration.empty()) {
      std::string stopped_by;
      wrong = run_soak_sweep(cmd, comm, boot, root ? &out.table : nullptr, root ? &out.record : nullptr, stopped_by);
      if (stopped_by == "SIGINT" || stopped_by == "SIGTERM") interrupted = stopped_by == "SIGINT" ? 130 : 143;
    } else wrong = run_sweeps(cmd, comm, boot, out, order);
    int verdict = 0;
    if (!cmd.rules.empty()) {
      // Only rank 0 judges; the others measure again when it says so.
      const RunRules rules = root ? *load_run_rules(cmd.rules, cmd.rules_baseline, cmd.retries, cmd.rules_junit) : RunRules{};
      verdict = judge_run(rules, boot, root ? &out.record : nullptr, [&](const std::string& algo, uint64_t bytes) {
        wrong += remeasure(cmd, comm, boot, out, parse_algorithm(algo), bytes);
      });
    }
    boot.barrier();
    out.record.finish(true);
    if (root && !cmd.plot_path.empty()) write_run_plot(cmd.plot_path, out.record.json_text());
    if (wrong > 0 || verdict != 0) return 1;
    return interrupted;
  });
}

}  // namespace ccb::cli
