// `ccbench run`: what is judged before any rank starts, and what the ranks of a job
// must agree on. Every number from a flag or a file is hostile until checked here.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/checked.h"
#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "job/preflight.h"
#include "metrics/link_utilization.h"
#include "profiles/trace.h"
#include "run_parallel.h"
#include "run_command.h"
#include "report_command.h"
#include "run_rules.h"
#include "runner/result_record.h"
#include "runner/step_runner.h"
#include "transport_sweep.h"

namespace ccb::cli {
namespace {

constexpr double kMaxTimeoutS = 86400;          // a silent peer is gone long before a day
constexpr uint64_t kMaxChunkBytes = 1ull << 30;
constexpr int kMaxSocketBuffer = 1 << 30;       // the kernel takes an int, and doubles it
constexpr int kMaxRepeat = 10000;
constexpr int kMaxWindow = 4096;  // messages in flight: more only queues in the transport

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ",") + p;
  return s;
}

std::string hex_digest(uint64_t h) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// Every call a trace replays: ranks may read their traces from other paths, but the
// calls must be the same.
std::string trace_digest(const std::vector<TraceCall>& calls) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](uint64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  };
  for (const TraceCall& c : calls) {
    mix(static_cast<uint64_t>(c.op));
    mix(c.bytes);
    mix(static_cast<uint64_t>(c.dtype));
  }
  return std::to_string(calls.size()) + " calls, digest " + hex_digest(h);
}

std::string or_auto(int v) { return v <= 0 ? "auto" : std::to_string(v); }

// The largest buffer a profile or trace will ask for, padded as the runner pads it.
uint64_t largest_step_buffer(const RunCommand& c, int world) {
  uint64_t largest = 0;
  for (const Profile& p : c.profile_list())
    for (const ProfileEntry& e : p.entries) largest = std::max(largest, padded_bytes(e.op, e.dtype, world, e.bytes));
  if (!c.trace.empty()) {
    uint64_t total = 0;
    for (const TraceCall& call : load_trace(c.trace)) {
      total = checked_add(total, call.bytes, c.trace + ": the bytes of all calls");
      largest = std::max(largest, padded_bytes(call.op, call.dtype, world, call.bytes));
    }
  }
  return largest;
}

// Outputs exist where they will be written, and never overwrite an input.
void check_files(const RunCommand& c) {
  std::vector<std::pair<std::string, std::string>> outputs, inputs;
  if (!c.json_path.empty()) outputs.emplace_back("--json", c.json_path);
  if (!c.csv_path.empty()) outputs.emplace_back("--csv", c.csv_path);
  if (!c.plot_path.empty()) outputs.emplace_back("--plot", c.plot_path);
  if (!c.rules_junit.empty()) outputs.emplace_back("--junit", c.rules_junit);
  if (!c.trace.empty()) inputs.emplace_back("--trace", c.trace);
  for (const std::string& p : c.profiles) inputs.emplace_back("--profile", p.substr(0, p.rfind(':')));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto& [flag, path] = outputs[i];
    for (size_t j = 0; j < i; ++j)
      if (same_file(outputs[j].second, path))
        throw_invalid(outputs[j].first + " and " + flag + " name the same file '" + path + "': give each its own");
    for (const auto& [in_flag, in_path] : inputs)
      if (same_file(in_path, path))
        throw_invalid(flag + " '" + path + "' is the file " + in_flag + " reads: write the results elsewhere");
    check_output(flag, path);
  }
}

}  // namespace

int parse_socket_buffer(const std::string& text) {
  uint64_t b = parse_bytes(text);
  if (b > static_cast<uint64_t>(kMaxSocketBuffer))
    throw_invalid("--socket-buffer " + text + " is above the limit of 1G (the kernel takes an int and doubles "
                  "it; net.core.[rw]mem_max caps it anyway): use 0 for autotuning or a smaller size");
  return static_cast<int>(b);
}

bootstrap::JobFingerprint RunCommand::fingerprint(int world_size) const {
  bootstrap::JobFingerprint f;
  using bootstrap::add_field;
  add_field(f, "ccbench", std::string(kCcbenchVersion) + " run");
  add_field(f, "world size", std::to_string(world_size));
  add_field(f, "--transport", transport.name);
  if (!parallel.empty()) add_field(f, "--parallel", parse_parallel(parallel, world_size).describe());
  if (!profiles.empty()) {
    std::vector<std::string> names;
    for (const Profile& p : profile_list()) names.push_back(p.name + " (" + std::to_string(p.entries.size()) + " sizes)");
    add_field(f, "--profile", join(names));
  } else if (!trace.empty()) {
    add_field(f, "--trace", trace_digest(load_trace(trace)));
    add_field(f, "--trace-passes", std::to_string(trace_passes));
  } else {
    std::vector<std::string> shown;
    for (uint64_t s : size_list()) shown.push_back(short_bytes(s));
    add_field(f, "--collective", collective);
    add_field(f, "--sizes", join(shown));
    add_field(f, "-d", dtype);
  }
  add_field(f, "-o", op);
  add_field(f, "--root", std::to_string(root));
  add_field(f, "--peer-map", peer_map.empty() ? "r+1" : peer_map);
  add_field(f, "--splits", splits.empty() ? "none" : splits);
  add_field(f, "--window", std::to_string(window));
  add_field(f, "--hops", hops ? "yes" : "no");
  add_field(f, "--duration", duration.empty() ? "none" : duration);
  add_field(f, "--sweep", sweep.empty() ? "none" : sweep);
  add_field(f, "--algo", algos + (tune ? " (--tune)" : ""));
  add_field(f, "--intra", intra);
  add_field(f, "--inter-algo", inter_algo);
  add_field(f, "--ranks-per-host", std::to_string(ranks_per_host));
  add_field(f, "-n", or_auto(iters));
  add_field(f, "-w", warmup < 0 ? "auto" : std::to_string(warmup));
  add_field(f, "-c", std::to_string(check));
  add_field(f, "--in-place", in_place ? "yes" : "no");
  add_field(f, "--chunk-bytes", short_bytes(parse_bytes(chunk_bytes)));
  add_field(f, "--slots", std::to_string(slots));
  add_field(f, "--repeat", std::to_string(repeat));
  add_field(f, "--rules", rules.empty() ? "no" : "yes");  // every rank takes part in --retries
  add_field(f, "--shuffle", shuffle ? (seed ? "seed " + std::to_string(*seed) : "yes") : "no");
  if (transport.name == "verbs") {
    add_field(f, "--qps", std::to_string(transport.verbs.qps));
    add_field(f, "--ib-cm", transport.verbs.connect_mode == VerbsConnectMode::kNative ? "native" : "rdmacm");
  } else {
    add_field(f, "--tcp-streams", std::to_string(transport.tcp.streams));
  }
  return f;
}

// --root and --peer-map: only where the collective takes them, and within the world.
static void check_root_and_peer_map(const RunCommand& c, const CollectiveDescriptor& d, int world) {
  const std::string name(d.name), last = std::to_string(world - 1);
  if (c.root != 0 && !d.rooted) {
    std::vector<std::string> rooted;
    for (const CollectiveDescriptor* other : all_collectives())
      if (other->rooted) rooted.emplace_back(other->name);
    throw_invalid("--root applies to " + join(rooted) + ", not " + name + ": drop --root");
  }
  if (d.rooted && (c.root < 0 || c.root >= world))
    throw_invalid("--root " + std::to_string(c.root) + " is outside the world of " + std::to_string(world) + " ranks: use 0.." + last);
  if (c.peer_map.empty()) return;
  if (!d.permuted) throw_invalid("--peer-map applies to send_recv, not " + name + ": drop --peer-map");
  const std::vector<int> map = c.peer_map_list();
  if (map.size() != static_cast<size_t>(world))
    throw_invalid("--peer-map has " + std::to_string(map.size()) + " entries for a world of " + std::to_string(world) +
                  " ranks: give one per rank");
  std::vector<bool> seen(static_cast<size_t>(world), false);
  for (int r : map) {
    if (r >= world || seen[static_cast<size_t>(r)])
      throw_invalid("--peer-map " + c.peer_map + " is not a permutation of 0.." + last + ": list each rank once");
    seen[static_cast<size_t>(r)] = true;
  }
}

// A point-to-point test runs on one pair, or on pairs 0-1, 2-3... with --pairs.
static void check_point_to_point(const RunCommand& c, const CollectiveDescriptor& d, int world) {
  if (c.window < 1 || c.window > kMaxWindow)
    throw_invalid("--window must be between 1 and " + std::to_string(kMaxWindow) + " messages");
  if (c.window != 1 && !d.windowed) throw_invalid("--window applies to p2p_bw and p2p_bidir, not " + std::string(d.name));
  if (d.columns == TableColumns::kCollective) return;
  if (!c.pairs && world != 2)
    throw_invalid(std::string(d.name) + " runs between 2 ranks, not " + std::to_string(world) +
                  ": use 2 ranks, or --pairs for pairs 0-1, 2-3...");
  if (c.pairs && world % 2 != 0)
    throw_invalid("--pairs needs an even number of ranks, not " + std::to_string(world) + ": every rank needs a partner");
}

// --duration: a soak of a sweep, one algorithm, every call checked.
static void check_soak(const RunCommand& c, const std::vector<Algorithm>& algorithms) {
  parse_duration_s(c.duration, "--duration");
  if (!std::isfinite(c.interval_s) || c.interval_s < 0.1 || c.interval_s > 86400)
    throw_invalid("--interval must be between 0.1 and 86400 seconds");
  if (!c.profiles.empty() || !c.trace.empty()) throw_invalid("--duration soaks a sweep's sizes: drop --profile/--trace");
  if (c.check == 0) throw_invalid("--duration checks every call of the soak: drop -c 0");
  if (algorithms.size() > 1) throw_invalid("--duration soaks one algorithm: give one to --algo");
  if (c.repeat > 1 || c.retries > 0 || c.hops || c.shuffle)
    throw_invalid("--duration runs one soak: drop --repeat, --retries, --hops and --shuffle");
}

// all_to_allv and --splits go together; a matrix file fixes the buffer's size.
static void check_splits(const RunCommand& c, const CollectiveDescriptor& d, int world) {
  if (!d.uneven) {
    if (!c.splits.empty()) throw_invalid("--splits applies to all_to_allv, not " + std::string(d.name) + ": drop --splits");
    return;
  }
  if (c.splits.empty()) throw_invalid("all_to_allv needs --splits FILE (ranks x ranks bytes) or --splits moe:skew=1.2,seed=7");
  if (c.in_place) throw_invalid("--in-place does not apply to all_to_allv: a rank receives another amount than it sends");
  const SplitSpec s = parse_split_spec(c.splits);
  for (uint64_t size : c.size_list()) split_buffer_bytes(s, world, parse_dtype(c.dtype), size);
}

// all_to_allv's receive buffer at `size`: the hottest receiver's total, up to ranks x
// the send buffer under a steep routing model. 0 for the other collectives.
static uint64_t uneven_recv_bytes(const RunOptions& o, int world, uint64_t size) {
  if (!describe(o.collective).uneven || !o.splits) return 0;
  const size_t esize = dtype_size(o.dtype);
  return checked_mul(make_splits(*o.splits, world, o.dtype, size / esize).largest_recv_total(), esize,
                     "all_to_allv's receive buffer");
}

// --ranks-per-host and --algo hier: what can be judged before the hosts are known.
static void check_hier(const RunCommand& c, int world) {
  if (c.ranks_per_host > 0 && world % c.ranks_per_host != 0)
    throw_invalid("--ranks-per-host " + std::to_string(c.ranks_per_host) + " does not divide the " + std::to_string(world) +
                  " ranks: give a number of ranks per host that divides --np");
  if (!c.runs_hier()) {
    const bool intra_applies = c.auto_may_run_hier() || !c.parallel.empty();  // --parallel: its groups within a host
    if ((c.intra != "shm" && !intra_applies) || (c.inter_algo != "auto" && !c.auto_may_run_hier()))
      throw_invalid("--intra and --inter-algo choose --algo hier's legs (--intra also --parallel's groups within a host): "
                    "add hier to --algo (or run --algo auto over sizes or a --profile), or drop them");
    return;
  }
  if (!c.profiles.empty() || !c.trace.empty() || !c.duration.empty() || !c.sweep.empty())
    throw_invalid("--algo hier runs in a sweep of sizes so far: drop --profile, --trace, --duration and --sweep, or use --algo auto");
}

void RunCommand::validate(int world, int ranks_here, bool writes_outputs) const {
  if (!std::isfinite(timeout_s) || timeout_s <= 0 || timeout_s > kMaxTimeoutS)
    throw_invalid("--timeout must be a number of seconds above 0 and at most 86400");
  const uint64_t chunk = parse_bytes(chunk_bytes);
  if (chunk < 64 || chunk > kMaxChunkBytes) throw_invalid("--chunk-bytes must be between 64 and 1G");
  parse_socket_buffer(socket_buffer);
  if (!line_rate.empty()) parse_line_rate(line_rate);
  if (!is_transport(transport.name)) throw_invalid("unknown transport '" + transport.name + "': use " + transport_list());
  auto algorithms = algorithm_list();
  RunOptions o = run_options(algorithms.front());
  for (Algorithm a : algorithms) validate_algorithm(o.collective, a);
  check_root_and_peer_map(*this, describe(o.collective), world);
  check_splits(*this, describe(o.collective), world);
  check_point_to_point(*this, describe(o.collective), world);
  if (in_place && !describe(o.collective).place_in_place)
    throw_invalid("--in-place does not apply to " + collective + ": a message and its answer would overwrite each other");
  if (tune && algorithms.front() != Algorithm::kAuto)
    throw_invalid("--tune measures what --algo auto chooses: drop --tune, or use --algo auto");
  if (!profiles.empty() && !trace.empty()) throw_invalid("--profile and --trace each describe a step: give one of them");
  if (!parallel.empty() && profiles.empty())
    throw_invalid("--parallel splits a model's step into its groups: add --profile MODEL (a preset or a model .json)");
  if (trace_passes < 1) throw_invalid("--trace-passes must be at least 1");
  if (repeat < 1 || repeat > kMaxRepeat) throw_invalid("--repeat must be between 1 and " + std::to_string(kMaxRepeat));
  if (bind_numa && bind_cores) throw_invalid("--bind-numa and --bind-cores both choose the CPUs: give one of them");
  if (!duration.empty()) check_soak(*this, algorithms);
  if (!sweep.empty()) {
    parse_transport_sweep(sweep, transport.name);
    if (!duration.empty() || repeat > 1 || hops || retries > 0)
      throw_invalid("--sweep runs each setting once: drop --duration, --repeat, --hops and --retries");
  }
  if (hops && (!profiles.empty() || !trace.empty()))
    throw_invalid("--hops times the ring of a sweep: drop --profile/--trace, or drop --hops");
  if (hops && !describe(o.collective).supports(Algorithm::kRing))
    throw_invalid("--hops times a ring, and " + collective + " has none: use allreduce, reduce_scatter or all_gather");
  if (hops && std::find(algorithms.begin(), algorithms.end(), Algorithm::kRing) == algorithms.end() &&
      algorithms.front() != Algorithm::kAuto)
    throw_invalid("--hops times a ring: add ring to --algo");
  check_hier(*this, world);
  if (seed && !shuffle) throw_invalid("--seed orders the sizes of --shuffle: add --shuffle, or drop --seed");
  uint64_t largest = 0, largest_recv = 0;
  if (!profiles.empty() || !trace.empty()) {
    if (!sizes.empty() || !min_bytes.empty() || !max_bytes.empty())
      throw_invalid("--profile/--trace set the sizes: drop -b, -e and --sizes");
    if (collective != "allreduce" || dtype != "float")
      throw_invalid("--profile/--trace set each call's collective and type: drop --collective and -d");
    largest = parallel.empty() ? largest_step_buffer(*this, world) : parallel_buffer_bytes(parallel_plan(*this, world));
  } else {
    for (uint64_t s : size_list()) {
      validate_size(o.collective, o.dtype, world, s);
      largest = std::max(largest, s);
      largest_recv = std::max(largest_recv, uneven_recv_bytes(o, world, s));
    }
  }
  check_memory_fits(largest, ranks_here, std::max(largest, largest_recv));
  if (retries > 0 && (!profiles.empty() || !trace.empty()))
    throw_invalid("--retries measures sizes of a sweep again; for --profile or --trace, judge the result with ccbench check");
  if (writes_outputs) {
    check_files(*this);
    if (!plot_path.empty()) check_plot_path(plot_path);
    load_run_rules(rules, rules_baseline, retries, rules_junit);  // a bad rule file is refused before any rank starts
  }
}

}  // namespace ccb::cli
