#include "scan_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "job/number_flags.h"
#include "job/host_labels.h"
#include "job/preflight.h"
#include "job/rank_job.h"
#include "judge/pair_scan.h"
#include "report/plot.h"
#include "report_command.h"
#include "runner/result_record.h"
#include "scan_fabric.h"

namespace ccb::cli {
namespace {

using judge::PairMatrix;

constexpr uint64_t kLatencyBytes = 8;
constexpr uint64_t kMaxScanBytes = 1ull << 30;

PairMatrix empty_matrix(int n) {
  return PairMatrix(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(n), std::nan("")));
}

class Scanner {
 public:
  Scanner(const ScanCommand& c, Communicator& comm, Bootstrap& boot)
      : c_(c), comm_(comm), boot_(boot), bytes_(parse_bytes(c.bw_size)) {}

  // Both figures of every pair that meets in this round (the others sit it out).
  void measure_round(const std::vector<int>& partner, PairFigures& into) {
    const SizeResult bw = run(CollectiveKind::kP2pBidir, bytes_, c_.window, c_.bw_iters, partner);
    const SizeResult lat = run(CollectiveKind::kP2pLat, kLatencyBytes, 1, c_.lat_iters, partner);
    for (size_t a = 0; a < partner.size(); ++a) {
      const size_t b = static_cast<size_t>(partner[a]);
      if (b <= a) continue;
      const double bw_us = std::max(bw.rank_p50_us[a], bw.rank_p50_us[b]);
      const double gbps = bw_us > 0 ? static_cast<double>(bytes_) * c_.window / bw_us / 1e3 : 0;
      const double lat_us = std::max(lat.rank_p50_us[a], lat.rank_p50_us[b]) / 2;
      into.bw_gbps[a][b] = into.bw_gbps[b][a] = gbps;
      into.lat_us[a][b] = into.lat_us[b][a] = lat_us;
    }
  }
  // One pair alone, every other rank sitting out: a retest tells a slow pair from a
  // round whose other pairs loaded the fabric (or, emulated, the CPUs). The pair keeps
  // its best figures over every try: noise only ever slows a pair, and a fault slows
  // it every time, so a pair is judged slow only when it was slow at each try.
  void measure_alone(const judge::SlowPair& p, PairFigures& into) {
    const size_t n = into.bw_gbps.size(), a = static_cast<size_t>(p.a), b = static_cast<size_t>(p.b);
    std::vector<int> partner(n);
    for (size_t r = 0; r < n; ++r) partner[r] = static_cast<int>(r);
    partner[a] = p.b;
    partner[b] = p.a;
    PairFigures again = into;
    measure_round(partner, again);
    into.bw_gbps[a][b] = into.bw_gbps[b][a] = std::max(into.bw_gbps[a][b], again.bw_gbps[a][b]);
    into.lat_us[a][b] = into.lat_us[b][a] = std::min(into.lat_us[a][b], again.lat_us[a][b]);
  }
  uint64_t wrong() const { return wrong_; }

 private:
  SizeResult run(CollectiveKind kind, uint64_t bytes, int window, int iters, const std::vector<int>& partner) {
    RunOptions o;
    o.collective = kind;
    o.algorithm = Algorithm::kDirect;
    o.dtype = DataType::kU8;
    o.window = window;
    o.iters = iters;
    o.peer_map = partner;
    SizeResult r = CollectiveRunner(comm_, boot_, o).run(bytes);
    wrong_ += r.wrong;
    return r;
  }

  const ScanCommand& c_;
  Communicator& comm_;
  Bootstrap& boot_;
  uint64_t bytes_;
  uint64_t wrong_ = 0;
};

std::string pairs_text(const std::vector<int>& partner) {
  std::string s;
  for (size_t a = 0; a < partner.size(); ++a)
    if (static_cast<size_t>(partner[a]) > a) s += (s.empty() ? "" : " ") + std::to_string(a) + "-" + std::to_string(partner[a]);
  return s;
}

void print_matrix(const std::string& title, const PairMatrix& m, double scale, const char* format) {
  std::printf("# %s\n%8s", title.c_str(), "");
  for (size_t b = 0; b < m.size(); ++b) std::printf(" %9s", ("rank " + std::to_string(b)).c_str());
  std::printf("\n");
  for (size_t a = 0; a < m.size(); ++a) {
    std::printf("%8s", ("rank " + std::to_string(a)).c_str());
    for (size_t b = 0; b < m.size(); ++b) {
      if (a == b) std::printf(" %9s", "-");
      else std::printf(format, m[a][b] * scale);
    }
    std::printf("\n");
  }
}

nlohmann::ordered_json matrix_json(const PairMatrix& m) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& row : m) {
    auto r = nlohmann::ordered_json::array();
    for (double v : row) r.push_back(std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr));
    out.push_back(r);
  }
  return out;
}


// Ranks that share a host share its CPUs, memory and NIC: a slow pair among them shows
// the host's load, not a cable. All on one: the pairs are shown, not judged.
void judge_places(const std::vector<std::string>& places, ScanOutcome& s) {
  const auto& bw = s.final.bw_gbps;
  const auto& lat = s.final.lat_us;
  if (std::all_of(places.begin(), places.end(), [&](const std::string& p) { return p == places.front(); })) {
    s.one_place = places.front();
    const size_t slow = s.verdict.slow.size();
    s.lines = {"scan: PASS: not judged: every rank runs on one host and NIC (" + s.one_place +
               "), so a slow pair shows this host's load, not a NIC or cable (" + std::to_string(slow) +
               " pair(s) were below the rule); only that every byte arrived intact is checked. Run one rank per host to scan a fabric"};
    return;
  }
  s.lines = judge::verdict_lines(s.verdict, bw, lat, s.labels, s.limits);
  for (size_t a = 0; a < places.size(); ++a)
    for (size_t b = a + 1; b < places.size(); ++b)
      if (places[a] == places[b]) {
        s.lines.insert(s.lines.begin(), "# warning: ranks " + std::to_string(a) + " and " + std::to_string(b) +
                                            " share host " + places[a] + ": their pair measures that host, not a cable");
        return;  // one warning says it; the labels show the rest
      }
}

void write_scan_json(const ScanCommand& c, const ScanOutcome& s, const Transport& t) {
  nlohmann::ordered_json j;
  j["schema"] = "ccbench.scan/1";
  j["ccbench_version"] = kCcbenchVersion;
  j["command"] = c.base.argv;
  j["started_utc"] = utc_now_iso8601();
  j["transport"] = t.describe();
  j["hosts"] = s.labels;
  j["settings"] = {{"bw_test", "p2p_bidir"}, {"bw_bytes", parse_bytes(c.bw_size)}, {"window", c.window},
                   {"bw_iters", c.bw_iters}, {"lat_bytes", kLatencyBytes}, {"lat_iters", c.lat_iters},
                   {"bw_frac", c.bw_frac}, {"lat_factor", c.lat_factor}, {"retests", c.retests}};
  auto rounds = nlohmann::ordered_json::array();
  for (const auto& r : s.rounds) rounds.push_back(r);
  j["rounds"] = rounds;
  j["bw_gbps"] = matrix_json(s.final.bw_gbps);  // GB/s each way
  j["lat_us"] = matrix_json(s.final.lat_us);    // one way, the median round trip halved
  j["first_bw_gbps"] = matrix_json(s.first.bw_gbps);
  j["first_lat_us"] = matrix_json(s.first.lat_us);
  auto retested = nlohmann::ordered_json::array();
  for (const auto& p : s.retested) retested.push_back({p.a, p.b});
  j["retested"] = retested;
  j["median_bw_gbps"] = s.verdict.median_bw;
  j["min_lat_us"] = s.verdict.min_lat;
  j["bad_hosts"] = s.verdict.bad_hosts;
  auto pairs = nlohmann::ordered_json::array();
  for (const auto& p : s.verdict.bad_pairs) pairs.push_back({{"a", p.a}, {"b", p.b}, {"slow_bw", p.slow_bw}, {"slow_lat", p.slow_lat}});
  j["bad_pairs"] = pairs;
  j["line_rate_gbps"] = c.base.line_rate.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(parse_line_rate(c.base.line_rate));
  j["wrong"] = s.wrong;
  j["pass"] = s.pass();
  j["one_host"] = s.one_place.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.one_place);
  j["topology"] = s.topology.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.topology);
  j["plan"] = s.plan;
  j["findings"] = s.findings;
  j["verdict"] = s.lines;
  write_output(check_output("--json", c.base.json_path), j.dump(2) + "\n");
}

void write_scan_plot(const ScanCommand& c, const ScanOutcome& s) {
  report::Drawing d = report::draw(scan_heatmap(s));
  write_output(check_output("--plot", c.base.plot_path), c.base.plot_path.ends_with(".png") ? d.png : d.svg);
}

}  // namespace

report::Plot scan_heatmap(const ScanOutcome& s) {
  report::Plot p;
  p.name = "scan";
  char title[160];
  std::snprintf(title, sizeof title, "each pair against the rule: bandwidth >= %.2f x median, latency <= %.2f x minimum",
                s.limits.bw_frac, s.limits.lat_factor);
  p.title = title;
  p.ylabel = "margin to the rule (below 1 fails)";
  p.log_x = false;
  p.cell_limit = 1;
  const size_t n = s.final.bw_gbps.size();
  for (size_t a = 0; a < n; ++a) {
    std::vector<double> cells;
    std::vector<std::string> labels;
    for (size_t b = 0; b < n; ++b) {
      const double bw = s.final.bw_gbps[a][b], lat = s.final.lat_us[a][b];
      cells.push_back(a == b ? std::nan("") : judge::pair_margin(bw, lat, s.verdict, s.limits));
      char text[64];
      std::snprintf(text, sizeof text, "%.3gG %.3gus", bw * 8, lat);
      labels.push_back(a == b ? "" : text);
    }
    p.cells.push_back(cells);
    p.cell_labels.push_back(labels);
  }
  for (size_t r = 0; r < s.labels.size(); ++r) p.cell_names.push_back("rank " + std::to_string(r));
  return p;
}

namespace {

void report_scan(const ScanCommand& c, const ScanOutcome& s, const Transport& t) {
  print_matrix("bandwidth each way [Gbit/s] (p2p_bidir " + c.bw_size + " x " + std::to_string(c.window) + ")", s.final.bw_gbps, 8, " %9.3f");
  print_matrix("latency one way [us] (p2p_lat 8 B, median)", s.final.lat_us, 1, " %9.1f");
  for (const std::string& line : s.labels) std::printf("# %s\n", line.c_str());
  if (!c.base.line_rate.empty())
    std::printf("# the median pair: %.3f Gbit/s each way, %.1f%% of the line rate %s\n", s.verdict.median_bw * 8,
                s.verdict.median_bw * 8 / parse_line_rate(c.base.line_rate) * 100, c.base.line_rate.c_str());
  if (!s.retested.empty())
    std::printf("# %zu slow pair(s) measured again, each alone; the figures above are the retest's\n", s.retested.size());
  for (const std::string& line : s.lines) std::printf("%s\n", line.c_str());
  if (s.wrong > 0) std::printf("scan: FAIL: %llu wrong elements arrived\n", static_cast<unsigned long long>(s.wrong));
  std::fflush(stdout);
  if (!c.base.json_path.empty()) write_scan_json(c, s, t);
  if (!c.base.plot_path.empty()) write_scan_plot(c, s);
}

bootstrap::JobFingerprint scan_fingerprint(const ScanCommand& c, int world) {
  bootstrap::JobFingerprint f;
  using bootstrap::add_field;
  add_field(f, "ccbench", std::string(kCcbenchVersion) + " scan");
  add_field(f, "world size", std::to_string(world));
  add_field(f, "--transport", c.base.transport.name);
  add_field(f, "--bw-size", c.bw_size);
  add_field(f, "--window", std::to_string(c.window));
  add_field(f, "--bw-iters", std::to_string(c.bw_iters));
  add_field(f, "--lat-iters", std::to_string(c.lat_iters));
  add_field(f, "--retests", std::to_string(c.retests));
  return f;
}

}  // namespace

void add_scan_options(CLI::App& scan, ScanCommand& c) {
  scan.add_option("--bw-size", c.bw_size, "Message size of the bandwidth test")->capture_default_str();
  scan.add_option("--window", c.window, "Bandwidth test: messages in flight each way")->check(CLI::Range(1, 4096))->capture_default_str();
  scan.add_option("--bw-iters", c.bw_iters, "Bandwidth test: timed iterations per pair")->check(CLI::Range(1, 1000000))->capture_default_str();
  scan.add_option("--lat-iters", c.lat_iters, "Latency test: timed round trips per pair")->check(CLI::Range(1, 10000000))->capture_default_str();
  scan.add_option("--bw-frac", c.bw_frac, "A pair below this fraction of the median bandwidth is slow")->check(ccb::finite_in(0, 1))->capture_default_str();
  scan.add_option("--lat-factor", c.lat_factor, "A pair above this multiple of the minimum latency is slow")->check(ccb::finite_in(1, 1e6))->capture_default_str();
  scan.add_option("--retests", c.retests, "Times a slow pair is measured again before it is judged")->check(CLI::Range(0, 10))->capture_default_str();
  scan.add_option("--np", c.base.np, "Ranks to start on this host (local launcher; a real scan has one per host)")->check(CLI::Range(1, 1024))->capture_default_str();
  scan.add_option("--timeout", c.base.timeout_s, "Seconds before a silent peer is declared gone")->check(ccb::timeout_seconds())->capture_default_str();
  scan.add_option("--spin-us", c.base.spin_us, "Busy-poll this long before sleeping in epoll")->check(CLI::Range(0, 1000000))->capture_default_str();
  scan.add_option("--json", c.base.json_path, "Write the matrices and the verdict as JSON (ccbench.scan/1)")->group("Output");
  scan.add_option("--plot", c.base.plot_path, "Draw the bandwidth matrix as a heatmap into this .svg or .png (gnuplot)")->group("Output");
  scan.add_option("--line-rate", c.base.line_rate, "The link's rate in bit/s (100G): each pair's bandwidth is also shown as a share of it")->group("Output");
  add_fabric_flags(scan, c.fabric);
  scan.add_flag("--dry-run", c.dry_run, "With --plan: print the plan's rounds, pairs and predicted time for --topology or --hosts; run nothing")->group("Fabric");
  scan.add_option("--socket-buffer", c.base.socket_buffer, "SO_SNDBUF/SO_RCVBUF size (0: kernel autotuning)")->capture_default_str()->group("TCP");
}

void validate_scan(const ScanCommand& c, int world, bool writes_outputs) {
  if (world < 2)
    throw_invalid("scan measures pairs of hosts and needs at least 2, one rank on each, not " + std::to_string(world) +
                  ": start it on 2 or more hosts (or --np 2 here)");
  const uint64_t bytes = parse_bytes(c.bw_size);
  if (bytes == 0 || bytes > kMaxScanBytes) throw_invalid("--bw-size must be between 1 B and 1G, not " + c.bw_size);
  check_memory_fits(bytes, 1, bytes);
  if (!writes_outputs) return;
  if (!c.base.line_rate.empty()) parse_line_rate(c.base.line_rate);
  if (!c.base.json_path.empty()) check_output("--json", c.base.json_path);
  if (!c.base.plot_path.empty()) check_plot_path(c.base.plot_path);
  scan_topology(c, world);
}

int run_scan_rank(const ScanCommand& c) {
  LaunchInfo info = detect_launch(process_env());
  validate_scan(c, info.world_size, info.rank == 0);
  check_fd_budget(c.base.transport, info.world_size);
  JobSettings settings{c.base.transport, std::chrono::milliseconds(static_cast<long long>(c.base.timeout_s * 1000)),
                       std::chrono::microseconds(c.base.spin_us), scan_fingerprint(c, info.world_size)};
  return run_as_rank(info, settings, [&](RankContext& rank) {
    const ScanOutcome s = measure_scan(c, rank, true);
    if (rank.boot.rank() == 0) report_scan(c, s, rank.transport);
    rank.boot.barrier();
    return s.pass() ? 0 : 1;
  });
}

ScanOutcome measure_scan(const ScanCommand& c, RankContext& rank, bool progress) {
  const int n = rank.boot.size();
  const bool root = rank.boot.rank() == 0 && progress;
  ScanOutcome s;
  const std::vector<std::string> places = host_places(rank.layout);
  s.labels = labels_of(places);
  const std::optional<fabric::Topology> topology = scan_topology(c, n);
  s.rounds = scan_rounds(c, topology, n);
  if (topology) s.topology = c.fabric.topology, s.plan = fabric::parse_plan(c.fabric.plan).text();
  s.first = {empty_matrix(n), empty_matrix(n)};
  Scanner scanner(c, rank.comm, rank.boot);
  const judge::ScanLimits limits{c.bw_frac, c.lat_factor};
  if (root) std::printf("# ccbench scan: %d hosts in %zu rounds over [%s]\n", n, s.rounds.size(), rank.transport.describe().c_str());
  for (size_t i = 0; i < s.rounds.size(); ++i) {
    scanner.measure_round(s.rounds[i], s.first);
    if (!root) continue;
    std::printf("# round %zu of %zu: %s done\n", i + 1, s.rounds.size(), pairs_text(s.rounds[i]).c_str());
    std::fflush(stdout);
  }
  s.final = s.first;
  for (int attempt = 0; attempt < c.retests; ++attempt) {
    const std::vector<judge::SlowPair> slow = scan_slow_pairs(topology, s.final, limits);
    if (slow.empty()) break;
    if (attempt == 0) s.retested = slow;
    for (const judge::SlowPair& p : slow) scanner.measure_alone(p, s.final);
  }
  s.verdict = judge::judge_pairs(s.final.bw_gbps, s.final.lat_us, limits);
  s.limits = limits;
  s.wrong = scanner.wrong();
  judge_places(places, s);
  if (topology && s.one_place.empty()) judge_on_fabric(*topology, s);
  return s;
}

}  // namespace ccb::cli
