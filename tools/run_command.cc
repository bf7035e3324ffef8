#include "run_command.h"

#include <cmath>
#include <iostream>
#include <sstream>

#include "algo/communicator.h"
#include "core/error.h"
#include "core/reduce.h"
#include "core/units.h"
#include "job/preflight.h"
#include "job/rank_job.h"
#include "metrics/link_utilization.h"
#include "profiles/trace.h"
#include "runner/result_record.h"
#include "runner/result_table.h"
#include "runner/step_runner.h"
#include "transport/ipoib/ipoib_interface.h"

namespace ccb::cli {

// The default list: latency, then message sizes of LLM training (DDP's first 1 MiB
// bucket and 25 MiB buckets, tensor-parallel activations of 16-64 MiB).
static const char* kLlmSizes = "8,64K,1M,4M,16M,25M,64M";
static constexpr size_t kMaxSizes = 1000;

std::vector<uint64_t> RunCommand::size_list() const {
  if (!sizes.empty()) return parse_byte_list(sizes);
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
  if (out.empty()) throw_invalid("--algo needs ring, tree or ring,tree");
  return out;
}

RunOptions RunCommand::run_options(Algorithm a) const {
  RunOptions o;
  o.collective = parse_collective(collective);
  o.algorithm = a;
  o.dtype = parse_dtype(dtype);
  o.op = parse_op(op);
  o.iters = iters;
  o.warmup = warmup;
  o.check = check != 0;
  o.in_place = in_place;
  o.chunks = ChunkPolicy{parse_bytes(chunk_bytes), slots};
  o.line_rate_gbps = line_rate.empty() ? 0 : parse_line_rate(line_rate);
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

static JobInfo job_info(const RunCommand& c, const Bootstrap& b, const Transport& t) {
  JobInfo j;
  j.command = c.argv;
  j.machine = probe_machine();
  j.ranks = b.size();
  j.bootstrap = b.name();
  j.transport = std::string(t.name());
  j.transport_settings = t.describe();
  j.link = t.link();
  j.line_rate_gbps = c.line_rate.empty() ? j.link.line_rate_gbps : parse_line_rate(c.line_rate);
  j.line_rate_source = !c.line_rate.empty() ? "--line-rate" : j.line_rate_gbps > 0 ? "link" : "none";
  j.isa = std::string(isa_name(active_isa()));
  j.started_utc = utc_now_iso8601();
  return j;
}

// Rank 0 prints and records; every rank measures.
struct Output {
  bool root;
  ResultTable table;
  ResultRecord record;
};

static uint64_t run_sweeps(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out) {
  uint64_t wrong = 0;
  for (Algorithm a : cmd.algorithm_list()) {
    RunOptions o = cmd.run_options(a);
    CollectiveRunner runner(comm, boot, o);
    if (out.root) out.table.header(title(cmd, o, boot, comm.transport(), collective_name(o.collective)));
    for (uint64_t bytes : cmd.size_list()) {
      SizeResult r = runner.run(bytes);
      wrong += r.wrong;
      if (!out.root) continue;
      out.table.row(r, o);
      out.record.add(ResultRow{o, r, "", "", 0});
    }
    if (out.root) out.table.footer();
  }
  return wrong;
}

static uint64_t run_profiles(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out) {
  uint64_t wrong = 0;
  for (const Profile& p : cmd.profile_list()) {
    for (Algorithm a : cmd.algorithm_list()) {
      RunOptions o = cmd.run_options(a);
      if (out.root) out.table.header("profile " + p.name + ": " + p.summary + "\n# " + title(cmd, o, boot, comm.transport(), "profile"), true);
      double step_us = run_profile(comm, boot, p, o, [&](const ProfileRow& row) {
        wrong += row.result.wrong;
        if (!out.root) return;
        out.table.row(row.result, row.options, row.entry.count);
        out.record.add(ResultRow{row.options, row.result, p.name, row.entry.what, row.entry.count});
      });
      if (!out.root) continue;
      out.table.footer();
      out.table.step_line(p.name + " (" + std::string(algorithm_name(a)) + ")", step_us);
      out.record.add(StepSummary{"profile", p.name, p.summary, std::string(algorithm_name(a)), step_us,
                                 p.calls_per_step(), p.bytes_per_step(), {}});
    }
  }
  return wrong;
}

static uint64_t run_trace(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, Output& out) {
  auto calls = load_trace(cmd.trace);
  uint64_t bytes = 0;
  for (const auto& c : calls) bytes += c.bytes;
  uint64_t wrong = 0;
  for (Algorithm a : cmd.algorithm_list()) {
    TraceResult t = replay_trace(comm, boot, calls, cmd.run_options(a), cmd.trace_passes);
    wrong += t.wrong;
    if (!out.root) continue;
    std::ostringstream s;
    s << "# trace " << cmd.trace << ": " << t.calls << " calls, " << format_bytes(bytes) << ", algo=" << algorithm_name(a)
      << ", " << t.passes << " timed passes: total p50 " << t.total_us.p50 / 1e3 << " ms, min " << t.total_us.min / 1e3
      << " ms, max " << t.total_us.max / 1e3 << " ms, #wrong " << t.wrong << "\n";
    std::cout << s.str() << std::flush;
    out.record.add(StepSummary{"trace", cmd.trace, std::to_string(t.calls) + " calls replayed in order",
                               std::string(algorithm_name(a)), t.total_us.p50, t.calls, bytes, t.total_us});
  }
  return wrong;
}

int run_rank(const RunCommand& cmd) {
  LaunchInfo info = detect_launch(process_env());
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
    if (root && cmd.transport.name == "ipoib") {
      const auto& ipoib = cmd.transport.ipoib;
      auto chosen = choose_ipoib_interface(ipoib, cmd.transport.tcp.iface);
      for (const std::string& w : ipoib_warnings(ipoib, chosen, cmd.transport.tcp.socket_buffer))
        print_line_to_stderr("warning: " + w);
    }
    Output out{root, ResultTable(std::cout),
               ResultRecord(job_info(cmd, boot, rank.transport), root ? cmd.json_path : "", root ? cmd.csv_path : "")};
    uint64_t wrong = 0;
    if (!cmd.profiles.empty()) wrong = run_profiles(cmd, comm, boot, out);
    else if (!cmd.trace.empty()) wrong = run_trace(cmd, comm, boot, out);
    else wrong = run_sweeps(cmd, comm, boot, out);
    boot.barrier();
    out.record.finish(true);
    return wrong > 0 ? 1 : 0;
  });
}

}  // namespace ccb::cli
