// `ccbench model project`: the step at each scale, and --what-if, seed 003's settings.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "metrics/link_utilization.h"
#include "model/compute_time.h"
#include "model/projection.h"
#include "model_command.h"

namespace ccb::cli {
namespace {

constexpr const char* kLeftOut =
    "# the model leaves out: congestion and incast (each link is alone), GPU kernels and copies (the reduction is the "
    "host's gamma), and overlap of communication with compute (a step is their sum)\n";

model::CostParams params(const std::string& alpha, const std::string& bandwidth, const char* alpha_flag, const char* bw_flag) {
  const double gbit = parse_line_rate(bandwidth, bw_flag);
  return {parse_latency_us(alpha, alpha_flag), 1e-3 / (gbit / 8), 0};
}

model::ProjectionInput projection_input(const ModelCommand::Project& p, const std::string& profile) {
  model::ProjectionInput in;
  const size_t colon = profile.rfind(':');
  in.model = load_model(profile.substr(0, colon));
  if (!p.parallel.empty()) {
    if (colon != std::string::npos) throw_invalid("--parallel takes --profile MODEL without a mode: --profile " + profile.substr(0, colon));
    in.parallel = p.parallel;
  } else {
    in.mode = colon == std::string::npos ? ParallelMode::kDdp : parse_mode(profile.substr(colon + 1));
  }
  in.ranks = p.ranks;
  in.gpus_per_node = p.gpus_per_node;
  for (int r : p.ranks) {
    if (r > p.gpus_per_node && r % p.gpus_per_node != 0)
      throw_invalid("--ranks " + std::to_string(r) + " is not a whole number of nodes of --gpus-per-node " + std::to_string(p.gpus_per_node));
    try {
      (void)model::model_parallel_ways(in, r);
    } catch (const Error& e) {
      throw_invalid("--ranks " + std::to_string(r) + " does not fit --parallel " + p.parallel + ": " + e.message());
    }
  }
  return in;
}

model::ComputeTime compute_for(const ModelCommand::Project& p, const model::ProjectionInput& in) {
  if (p.compute_ms) return {*p.compute_ms, "given: --compute-ms"};
  model::ComputeTime t = model::derive_compute_time(in.model, model::parse_tflops(p.gpu), p.mfu,
                                                    model::model_parallel_ways(in, in.ranks.front()));
  t.how += " (" + p.gpu + ")";
  return t;
}

// A projection from a fit that does not hold (model::distrust) would print numbers
// that look as good as any other.
model::FitReport trusted_fit(const ModelCommand::Project& p) {
  const model::FitReport fit = model::fit_from_json(read_regular_file(p.fit, 64ull << 20, "--fit"), p.fit);
  for (const model::GroupFit& g : fit.groups) {
    if (g.key.collective != "allreduce" || (!p.transport.empty() && g.key.transport != p.transport)) continue;
    const std::string why = model::distrust(g);
    if (why.empty()) continue;
    if (!p.accept_poor_fit)
      throw_invalid("--fit " + p.fit + ": " + g.key.describe() + " is a poor fit (" + why +
                    "): fit a sweep with more sizes and --repeat, or give --accept-poor-fit");
    std::printf("# warning: projecting from a poor fit (--accept-poor-fit): %s: %s\n", g.key.describe().c_str(), why.c_str());
  }
  return fit;
}

model::Network network(const ModelCommand::Project& p) {
  const model::CostParams intra = params(p.intra_alpha, p.intra_bandwidth, "--intra-alpha", "--intra-bandwidth");
  const std::string intra_words = std::string(p.intra_given ? "given" : "assumed (the defaults)") + ": --intra-alpha " +
                                  p.intra_alpha + " --intra-bandwidth " + p.intra_bandwidth +
                                  (p.intra_given ? "" : " (a fit of an --algo hier sweep measures them)");
  if (!p.fit.empty()) {
    if (!p.alpha.empty() || !p.bandwidth.empty()) throw_invalid("give --fit or --alpha with --bandwidth, not both");
    const model::FitReport fit = trusted_fit(p);
    const model::Network measured = model::Network::from_fit(fit, p.transport);
    // The flags win over a measurement, as they are the user's own question.
    return measured.intra_measured() && !p.intra_given ? measured : measured.with_intra(intra, intra_words);
  }
  if (p.alpha.empty() || p.bandwidth.empty())
    throw_invalid("model project needs the network: --fit FIT.json (model fit --out), or --alpha 2us --bandwidth 100G");
  return model::Network::given(params(p.alpha, p.bandwidth, "--alpha", "--bandwidth"),
                               "given: a " + p.alpha + ", bandwidth " + p.bandwidth + "bit/s").with_intra(intra, intra_words);
}

void print_rows(const std::vector<model::ScaleRow>& rows) {
  std::printf("#    ranks  comm_ring_ms  comm_tree_ms  step_ring_ms  step_tree_ms  weak_eff_ring  weak_eff_tree\n");
  for (const model::ScaleRow& r : rows)
    std::printf("  %7d %13.2f %13.2f %13.2f %13.2f %13.1f%% %13.1f%%\n", r.ranks, r.comm_ring_us / 1e3, r.comm_tree_us / 1e3,
                r.step_ring_ms, r.step_tree_ms, 100 * r.efficiency_ring, 100 * r.efficiency_tree);
  for (const model::ScaleRow& r : rows) {
    std::string calls;
    for (size_t i = 0; i < r.calls_ring_us.size() && i < 6; ++i) {
      char one[96];
      std::snprintf(one, sizeof one, "%s%s %.3f ms", i ? ", " : "", r.calls_ring_us[i].first.c_str(), r.calls_ring_us[i].second / 1e3);
      calls += one;
    }
    if (r.calls_ring_us.size() > 6) calls += ", ...";
    std::printf("# %d ranks, one call each (ring): %s\n", r.ranks, calls.c_str());
    if (!r.extrapolation.empty()) std::printf("# %d ranks extrapolates %s\n", r.ranks, r.extrapolation.c_str());
  }
}

nlohmann::json rows_json(const std::vector<model::ScaleRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const model::ScaleRow& r : rows) {
    nlohmann::json calls = nlohmann::json::array();
    for (const auto& [what, us] : r.calls_ring_us) calls.push_back({{"call", what}, {"ring_us", us}});
    out.push_back({{"ranks", r.ranks}, {"comm_ring_us", r.comm_ring_us}, {"comm_tree_us", r.comm_tree_us},
                   {"step_ring_ms", r.step_ring_ms}, {"step_tree_ms", r.step_tree_ms}, {"weak_efficiency_ring", r.efficiency_ring},
                   {"weak_efficiency_tree", r.efficiency_tree}, {"calls", calls}, {"extrapolation", r.extrapolation}});
  }
  return out;
}

// Seed 003's three settings. Without a fit of that transport, the bandwidth is the
// peak link use the paper measured (60, 20 and 9 Gbit/s), not the line rate: IPoIB on a
// 100G link moved 20.
struct Setting {
  const char* name;
  const char* transport;
  double gbit;
  double alpha_us;
};
constexpr Setting kSeedSettings[] = {{"RDMA 100G", "verbs", 60, 3}, {"IPoIB 100G", "ipoib", 20, 20}, {"TCP 10G", "tcp", 9, 40}};

model::Network seed_network(const ModelCommand::Project& p, const Setting& s, std::string& how) {
  if (!p.fit.empty()) {
    const model::FitReport fit = trusted_fit(p);
    for (const model::GroupFit& g : fit.groups)
      if (g.key.transport == s.transport) {
        model::Network n = model::Network::from_fit(fit, s.transport);
        how = n.source();
        return n;
      }
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "a %.0f us, %.0f Gbit/s (the paper's peak link use)", s.alpha_us, s.gbit);
  how = buf;
  return model::Network::given({s.alpha_us, 1e-3 / (s.gbit / 8), 0}, how);
}

int what_if(const ModelCommand::Project& p) {
  const std::vector<std::string> profiles = p.profile.empty() ? std::vector<std::string>{"llama2-7b:ddp", "bert-large:ddp"}
                                                              : std::vector<std::string>{p.profile};
  std::printf("# what-if: seed 003's settings (RDMA and IPoIB at 100G, TCP at 10G), data parallelism\n");
  std::string how[3];
  std::vector<model::Network> nets;
  for (size_t i = 0; i < 3; ++i) nets.push_back(seed_network(p, kSeedSettings[i], how[i]));
  for (size_t i = 0; i < 3; ++i) std::printf("# %-10s %s\n", kSeedSettings[i].name, how[i].c_str());
  for (const std::string& profile : profiles) {
    const model::ProjectionInput in0 = projection_input(p, profile);
    const model::ComputeTime compute = compute_for(p, in0);
    model::ProjectionInput in = in0;
    in.compute_ms = compute.ms;
    std::printf("# %s: compute %.1f ms per step, %s\n", profile.c_str(), compute.ms, compute.how.c_str());
    std::printf("#    ranks  rdma_step_ms  ipoib_step_ms  tcp_step_ms  rdma_vs_ipoib  rdma_vs_tcp  (paper: 2.5x, 4.8x)\n");
    std::vector<std::vector<model::ScaleRow>> rows;
    for (const model::Network& n : nets) rows.push_back(model::project(n, in));
    for (size_t k = 0; k < in.ranks.size(); ++k)
      std::printf("  %7d %13.1f %14.1f %12.1f %13.2fx %11.2fx\n", in.ranks[k], rows[0][k].step_ring_ms, rows[1][k].step_ring_ms,
                  rows[2][k].step_ring_ms, rows[1][k].step_ring_ms / rows[0][k].step_ring_ms,
                  rows[2][k].step_ring_ms / rows[0][k].step_ring_ms);
  }
  std::cout << "# speedups are of the whole step (ring AllReduce), compute included\n" << kLeftOut << std::flush;
  return 0;
}

}  // namespace

int run_model_project(const ModelCommand::Project& p) {
  std::optional<OutputTarget> out;
  if (!p.json.empty()) out = check_output("--json", p.json);
  if (p.what_if) return what_if(p);
  const std::string profile = p.profile.empty() ? "llama2-7b:ddp" : p.profile;
  model::ProjectionInput in = projection_input(p, profile);
  const model::Network net = network(p);
  const model::ComputeTime compute = compute_for(p, in);
  in.compute_ms = compute.ms;
  const std::vector<model::ScaleRow> rows = model::project(net, in);
  std::printf("# projection of %s%s, %d GPU(s) per node\n# across nodes: %s\n", profile.c_str(),
              p.parallel.empty() ? "" : (" --parallel " + p.parallel).c_str(), p.gpus_per_node, net.source().c_str());
  if (p.gpus_per_node > 1) std::printf("# within a node: %s\n", net.intra_source().c_str());
  std::printf("# compute %.1f ms per step, %s\n", compute.ms, compute.how.c_str());
  print_rows(rows);
  std::cout << "# weak scaling: a fixed batch per GPU, each step's time against the first scale's\n" << kLeftOut << std::flush;
  if (out)
    write_output(*out, nlohmann::json{{"schema", "ccbench.projection/1"}, {"profile", profile}, {"parallel", p.parallel},
                                      {"network", net.source()}, {"network_within_node", net.intra_source()}, {"compute_ms", compute.ms}, {"compute", compute.how},
                                      {"gpus_per_node", p.gpus_per_node}, {"scales", rows_json(rows)}}
                           .dump(2) + "\n");
  return 0;
}

}  // namespace ccb::cli
