#include "runner/result_record.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/files.h"
#include "metrics/bandwidth.h"
#include "runner/hop_report.h"

namespace ccb {

using nlohmann::json;
using ordered = nlohmann::ordered_json;

std::string utc_now_iso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

static ordered optional_number(const std::optional<double>& v) { return v ? ordered(*v) : ordered(nullptr); }

static ordered latency_json(const LatencyStats& s) {
  return ordered{{"samples", s.samples}, {"min", s.min}, {"p50", s.p50}, {"p95", s.p95}, {"p99", s.p99},
                 {"max", s.max}, {"mean", s.mean}, {"stdev", s.stdev}, {"cv", s.cv}};
}

static ordered number_or_null(int v) { return v < 0 ? ordered(nullptr) : ordered(v); }

// RoCE's lossless settings: bitmaps as priority lists ("3"), null where unknown.
static ordered roce_json(const std::optional<RoceQos>& q) {
  if (!q) return nullptr;
  auto prios = [](int bits) { return bits < 0 ? ordered(nullptr) : ordered(priorities_text(bits)); };
  return ordered{{"netdev", q->netdev}, {"pfc", prios(q->pfc_enabled)}, {"ecn_np", prios(q->ecn_np)},
                 {"ecn_rp", prios(q->ecn_rp)}, {"tos", number_or_null(q->tos)},
                 {"dscp", q->tos < 0 ? ordered(nullptr) : ordered(q->tos >> 2)},
                 {"traffic_class", number_or_null(q->traffic_class)}};
}

static ordered manifest_json(const HostManifest& m) {
  ordered nics = ordered::array();
  for (const NicManifest& n : m.nics)
    nics.push_back({{"name", n.name}, {"driver", n.driver}, {"firmware", n.firmware}, {"pci_id", n.pci_id},
                    {"pci_address", n.pci_address}, {"pcie_speed", n.pcie_speed}, {"pcie_max_speed", n.pcie_max_speed},
                    {"pcie_width", n.pcie_width}, {"pcie_max_width", n.pcie_max_width}, {"numa_node", n.numa_node},
                    {"mtu", n.mtu}, {"iommu", n.iommu}, {"roce", roce_json(n.roce)}});
  return ordered{{"governor", m.governor}, {"rdma_core", m.rdma_core}, {"nics", nics}};
}

// Hosts, ranks per host (null when they differ) and each rank's place: what a
// two-level collective or a rail was measured on.
static ordered layout_json(const HostLayout& l) {
  ordered ranks = ordered::array();
  for (int r = 0; r < l.ranks(); ++r)
    ranks.push_back({{"rank", r}, {"host", l.hosts[l.host_of[r]]}, {"local_rank", l.local_rank_of[r]}, {"nic", l.nic_of[r]}});
  const int per_host = l.ranks_per_host();
  return ordered{{"hosts", l.hosts}, {"ranks_per_host", per_host > 0 ? ordered(per_host) : ordered(nullptr)}, {"ranks", ranks}};
}

static ordered job_json(const JobInfo& j) {
  return ordered{
      {"command", j.command},
      {"started_utc", j.started_utc},
      {"machine", {{"host", j.machine.host}, {"cpu", j.machine.cpu_model}, {"cpus", j.machine.cpus},
                   {"kernel", j.machine.kernel}, {"os", j.machine.os}}},
      {"ranks", j.ranks},
      {"bootstrap", j.bootstrap},
      {"transport", {{"name", j.transport}, {"settings", j.transport_settings}}},
      {"memory", j.memory},
      {"wait", {{"spin_us", j.wait.spin.count()}, {"yield", j.wait.yield},
                {"timeout_s", std::chrono::duration<double>(j.wait.timeout).count()}}},
      {"nic", {{"name", j.link.nic}, {"driver", j.link.driver}, {"firmware", j.link.firmware},
               {"reported_rate_gbps", j.link.line_rate_gbps}, {"tx_counter", j.link.tx_counter}}},
      {"line_rate_gbps", j.line_rate_gbps > 0 ? ordered(j.line_rate_gbps) : ordered(nullptr)},
      {"line_rate_source", j.line_rate_source},
      {"reduce_isa", j.isa},
      {"repeat", j.repeat},
      {"shuffle_seed", j.shuffle_seed ? ordered(*j.shuffle_seed) : ordered(nullptr)},
      {"samples", j.samples},
      {"layout", layout_json(j.layout)},
      {"manifest", manifest_json(j.manifest)},
      {"warnings", j.warnings}};
}

// The figures of one pass; schema 1 had exactly these at the top of a result.
static ordered pass_json(const SizeResult& r, bool samples) {
  ordered counter = nullptr;
  if (r.counter) {
    ordered per_nic = ordered::array();  // the layout names each rank's host and NIC
    for (const auto& [rank, bytes] : r.counter->per_counter) per_nic.push_back({{"rank", rank}, {"bytes", bytes}});
    counter = {{"bytes", r.counter->bytes}, {"window_s", r.counter->window_s},
               {"per_rank_gbps", r.counter->gbytes_per_s}, {"util_pct", optional_number(r.counter_util_pct)},
               {"per_nic", per_nic}};
  }
  ordered j{{"iters", r.iters}, {"time_us", r.time_us}, {"algbw_gbps", r.algbw_gbps}, {"busbw_gbps", r.busbw_gbps},
            {"latency_us", latency_json(r.latency_us)},
            {"cpu_pct", {{"mean", r.cpu_pct_mean}, {"max", r.cpu_pct_max}, {"per_rank", r.rank_cpu_pct}}},
            {"line_rate_gbps", r.line_rate_gbps > 0 ? ordered(r.line_rate_gbps) : ordered(nullptr)},
            {"link_util_pct", optional_number(r.link_util_pct)}, {"nic_counter", counter},
            {"rank_mean_us", r.rank_mean_us}, {"wrong", r.wrong}};
  if (samples) j["samples_us"] = r.iter_max_us;
  if (r.soak)
    j["soak"] = {{"elapsed_s", r.soak->elapsed_s}, {"busbw_last_gbps", r.soak->busbw_last_gbps},
                 {"busbw_worst_gbps", r.soak->busbw_worst_gbps}, {"stopped_by", r.soak->stopped_by},
                 {"first_wrong", r.soak->first_wrong}};
  if (r.legs)
    j["legs_us"] = {{"intra_before", r.legs->intra_before_us}, {"inter", r.legs->inter_us},
                    {"intra_after", r.legs->intra_after_us}, {"inter_algo", algorithm_name(r.legs->inter_algorithm)},
                    {"intra_algo", algorithm_name(r.legs->intra_algorithm)}, {"intra_transport", r.legs->intra_transport}};
  if (!r.hop_in_us.empty()) {
    j["hop_in_us"] = r.hop_in_us;  // at r: the median transfer of a ring message r-1 -> r
    if (auto h = slowest_hop(r.hop_in_us)) j["slowest_hop"] = {{"from", h->from}, {"to", h->to}, {"us", h->us}, {"ratio", h->ratio}};
  }
  return j;
}

static ordered median_json(const judge::MedianSummary& m) {
  return ordered{{"median", m.median}, {"min", m.min}, {"max", m.max}, {"ci95_low", m.ci_low},
                 {"ci95_high", m.ci_high}, {"ci_coverage", m.ci_coverage}};
}

static ordered summary_json(const MeasurementSet::Measurement& m) {
  auto over_passes = [&](auto figure) {
    std::vector<double> v;
    for (const SizeResult& p : m.passes) v.push_back(figure(p));
    return median_json(judge::summarize_median(v));
  };
  return ordered{{"passes", m.passes.size()},
                 {"busbw_gbps", over_passes([](const SizeResult& p) { return p.busbw_gbps; })},
                 {"time_us", over_passes([](const SizeResult& p) { return p.time_us; })},
                 {"p50_us", over_passes([](const SizeResult& p) { return p.latency_us.p50; })},
                 {"p99_us", over_passes([](const SizeResult& p) { return p.latency_us.p99; })}};
}

static ordered result_json(const MeasurementSet::Measurement& m, bool samples) {
  const ResultRow& row = m.row;
  const SizeResult& median = m.median_pass();
  const RunOptions& o = row.options;
  ordered j{{"collective", collective_name(o.collective)}, {"algorithm", algorithm_name(o.algorithm)},
            {"dtype", dtype_name(o.dtype)}, {"op", reduce_op_label(o)}, {"in_place", o.in_place},
            {"bytes", median.bytes}, {"count", median.count}};
  if (describe(o.collective).windowed) j["window"] = o.window;
  if (!o.variant.empty()) j["variant"] = o.variant;
  if (row.chosen_by_auto) j["chosen_by"] = "auto";
  const ordered median_fields = pass_json(median, false);
  for (const auto& [key, value] : median_fields.items()) j[key] = value;
  j["wrong"] = m.wrong();
  if (!row.profile.empty()) {
    j["profile"] = row.profile;
    j["what"] = row.what;
    j["count_per_step"] = row.count_per_step;
    j["step_algorithm"] = row.step_algorithm;
  }
  ordered passes = ordered::array();
  for (const SizeResult& p : m.passes) passes.push_back(pass_json(p, samples));
  j["passes"] = passes;
  j["summary"] = summary_json(m);
  if (m.retries > 0) j["retries"] = m.retries;
  return j;
}

static ordered step_json(const MeasurementSet::Step& step) {
  const StepSummary& s = step.summary;
  std::vector<double> passes = step.passes_us;
  ordered j{{"kind", s.kind}, {"name", s.name}, {"summary", s.summary}, {"algorithm", s.algorithm},
            {"comm_us", s.comm_us}, {"calls", s.calls}, {"bytes", s.bytes}, {"passes_us", passes},
            {"comm_us_summary", median_json(judge::summarize_median(passes))}};
  if (s.trace_total_us.samples > 0) j["total_us"] = latency_json(s.trace_total_us);
  return j;
}

static std::string csv_field(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

static const char* kCsvHeader =
    "host,transport,ranks,collective,algorithm,dtype,op,in_place,profile,what,count_per_step,bytes,count,iters,"
    "time_us,algbw_gbps,busbw_gbps,lat_min_us,lat_p50_us,lat_p95_us,lat_p99_us,lat_max_us,lat_mean_us,lat_stdev_us,"
    "lat_cv,cpu_pct_mean,cpu_pct_max,line_rate_gbps,link_util_pct,counter_util_pct,wrong,passes,busbw_min_gbps,"
    "busbw_max_gbps,busbw_ci95_low_gbps,busbw_ci95_high_gbps\n";

// One row per measurement: the median pass, and the spread over the passes.
static std::string csv_row(const JobInfo& job, const MeasurementSet::Measurement& m) {
  const SizeResult& r = m.median_pass();
  const ResultRow& row = m.row;
  const RunOptions& o = row.options;
  const LatencyStats& l = r.latency_us;
  const judge::MedianSummary bw = m.busbw();
  auto opt = [](const std::optional<double>& v) { return v ? csv_field(*v) : std::string(); };
  std::ostringstream s;
  s << job.machine.host << ',' << job.transport << ',' << job.ranks << ',' << collective_name(o.collective) << ','
    << algorithm_name(o.algorithm) << ',' << dtype_name(o.dtype) << ',' << reduce_op_label(o) << ',' << o.in_place << ','
    << row.profile << ',' << row.what << ',' << row.count_per_step << ',' << r.bytes << ',' << r.count << ','
    << r.iters;
  for (double v : {r.time_us, r.algbw_gbps, r.busbw_gbps, l.min, l.p50, l.p95, l.p99, l.max, l.mean, l.stdev, l.cv,
                   r.cpu_pct_mean, r.cpu_pct_max})
    s << ',' << csv_field(v);
  s << ',' << (r.line_rate_gbps > 0 ? csv_field(r.line_rate_gbps) : "") << ',' << opt(r.link_util_pct) << ','
    << opt(r.counter_util_pct) << ',' << m.wrong() << ',' << m.passes.size();
  for (double v : {bw.min, bw.max, bw.ci_low, bw.ci_high}) s << ',' << csv_field(v);
  s << '\n';
  return s.str();
}

struct ResultRecord::State {
  JobInfo job;
  OutputTarget json_out, csv_out;
  MeasurementSet measured;
  bool complete = false;
  bool streams_written = false;
};

ResultRecord::ResultRecord(JobInfo job, std::string json_path, std::string csv_path)
    : state_(std::make_unique<State>()) {
  state_->job = std::move(job);
  if (!json_path.empty()) state_->json_out = check_output("--json", json_path);
  if (!csv_path.empty()) state_->csv_out = check_output("--csv", csv_path);
  flush();
}

ResultRecord::~ResultRecord() {
  if (state_->complete) return;
  try {
    write_streams();  // a run that failed still leaves what it measured on a stream
  } catch (const std::exception&) {
    // Nothing more can be done for a stream that cannot be written.
  }
}

void ResultRecord::add(const ResultRow& row) {
  state_->measured.add(row);
  flush();
}

void ResultRecord::add(const StepSummary& step) {
  state_->measured.add(step);
  flush();
}

void ResultRecord::restart(const ResultRow& row) { state_->measured.restart(row); }

void ResultRecord::replace(const ResultRow& row) {
  state_->measured.replace(row);
  flush();
}

const MeasurementSet& ResultRecord::measurements() const { return state_->measured; }

void ResultRecord::finish(bool complete) {
  state_->complete = complete;
  flush();
  write_streams();
}

std::string ResultRecord::json_text() const {
  ordered results = ordered::array(), steps = ordered::array();
  for (const auto& m : state_->measured.measurements())
    if (!m.passes.empty()) results.push_back(result_json(m, state_->job.samples));
  for (const auto& s : state_->measured.steps()) steps.push_back(step_json(s));
  ordered j{{"schema", kResultSchema}, {"ccbench_version", kCcbenchVersion}, {"complete", state_->complete},
            {"job", job_json(state_->job)}, {"results", results}, {"steps", steps}};
  return j.dump(2) + "\n";
}

std::string ResultRecord::csv_text() const {
  std::string csv = kCsvHeader;
  for (const auto& m : state_->measured.measurements())
    if (!m.passes.empty()) csv += csv_row(state_->job, m);
  return csv;
}

// Files are rewritten after every size; a stream (a device, a FIFO, /dev/stdout) cannot
// be rewritten, so it gets the record once, when the run ends.
void ResultRecord::flush() const {
  if (state_->json_out.kind == OutputTarget::Kind::kFile) write_output(state_->json_out, json_text());
  if (state_->csv_out.kind == OutputTarget::Kind::kFile) write_output(state_->csv_out, csv_text());
}

void ResultRecord::write_streams() {
  if (state_->streams_written) return;
  state_->streams_written = true;
  if (state_->json_out.is_stream()) write_output(state_->json_out, json_text());
  if (state_->csv_out.is_stream()) write_output(state_->csv_out, csv_text());
}

}  // namespace ccb
