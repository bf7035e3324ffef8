// lib/model: each cost formula, the fit's recovery of known parameters, the compute
// time, projections and the study table, on synthetic records (no ranks).
#include <catch2/catch.hpp>
#include <cmath>

#include "algo/collectives.h"
#include "json_file.h"
#include "model/compute_time.h"
#include "model/fit.h"
#include "model/projection.h"
#include "model/study.h"
#include "profiles/parameter_layout.h"

using namespace ccb;
using namespace ccb::model;

namespace {

constexpr double kMiB = 1 << 20;

judge::Measured row(const std::string& collective, int ranks, double bytes, double time_us) {
  judge::Measured m;
  m.collective = collective;
  m.algorithm = "ring";
  m.transport = "tcp";
  m.ranks = ranks;
  m.bytes = static_cast<uint64_t>(bytes);
  m.time_us = {time_us};
  m.busbw_gbps = {1};
  return m;
}

// A sweep of `collective` whose times are exactly the formula's with `p`.
judge::ResultFile synthetic(const std::string& collective, int ranks, const CostParams& p, double from = 4096,
                            double to = 64 * kMiB) {
  judge::ResultFile f;
  f.path = collective + ".json";
  f.machine = "test x2";
  for (double s = from; s <= to; s *= 2) f.results.push_back(row(collective, ranks, s, predict_us(collective, "ring", ranks, s, p)));
  return f;
}

const CostParams kTruth{25, 1e-3 / 1.25, 1e-3 / 5};  // 25 us, 1.25 GB/s, reduce at 5 GB/s

// A record of a hier sweep on `hosts` hosts of `per_host` ranks, its rows to come.
judge::ResultFile hier_file(int hosts, int per_host) {
  judge::ResultFile f;
  f.path = "hier.json";
  f.machine = "test x2";
  f.hosts = hosts;
  f.ranks_per_host = per_host;
  return f;
}

// Both legs of `collective` fitted back to the tests' parameters: within a host of 2 ranks
// a 5 us and 10 GB/s (shm), across `hosts` hosts a 50 us and 0.25 GB/s (tcp), both rings.
void check_legs(const FitReport& fit, const std::string& collective, int hosts) {
  const GroupFit* in_host = fit.find({"shm", collective, "ring", 2, kLegWithinHosts});
  const GroupFit* over_hosts = fit.find({"tcp", collective, "ring", hosts, kLegAcrossHosts});
  REQUIRE(in_host != nullptr);
  REQUIRE(over_hosts != nullptr);
  CHECK(in_host->segments.back().params.alpha_us == Approx(5).epsilon(0.01));
  CHECK(in_host->segments.back().params.bandwidth_gbps() == Approx(10).epsilon(0.01));
  CHECK(over_hosts->segments.back().params.alpha_us == Approx(50).epsilon(0.01));
  CHECK(over_hosts->segments.back().params.bandwidth_gbps() == Approx(0.25).epsilon(0.01));
}

}  // namespace

TEST_CASE("each cost formula, at 4 ranks and 1 MiB", "[model]") {
  auto terms = [](const char* c, const char* a, int n) { return find_formula(c, a)->terms(n, kMiB); };
  CostTerms ring = terms("allreduce", "ring", 4);
  CHECK(ring.steps == 6);
  CHECK(ring.wire_bytes == 1.5 * kMiB);
  CHECK(ring.reduce_bytes == 0.75 * kMiB);
  CostTerms tree = terms("allreduce", "tree", 8);
  CHECK(tree.steps == 6);
  CHECK(tree.wire_bytes == 2 * kMiB);
  CHECK(tree.reduce_bytes == kMiB);
  CHECK(terms("allreduce", "tree", 2).wire_bytes == kMiB);  // each rank the other's root
  CHECK(terms("allreduce", "recursive_doubling", 4).wire_bytes == 2 * kMiB);
  CHECK(terms("reduce_scatter", "ring", 4).steps == 3);
  CHECK(terms("reduce_scatter", "ring", 4).reduce_bytes == 0.75 * kMiB);
  CHECK(terms("all_gather", "ring", 4).wire_bytes == 0.75 * kMiB);
  CHECK(terms("all_gather", "ring", 4).reduce_bytes == 0);
  CHECK(terms("broadcast", "ring", 4).wire_bytes == kMiB);
  CHECK(terms("all_to_all", "direct", 4).wire_bytes == 0.75 * kMiB);
  CHECK(terms("send_recv", "direct", 2).steps == 1);
  CHECK(predict_us("allreduce", "ring", 4, kMiB, {10, 1e-3, 0}) == Approx(60 + 1.5 * kMiB * 1e-3));
  CHECK_THROWS_WITH(predict_us("p2p_bw", "direct", 2, 1, {}), Catch::Contains("no cost model for p2p_bw"));
}

TEST_CASE("every cost formula names a collective and an algorithm ccbench runs", "[model]") {
  for (const CostFormula& f : cost_formulas()) {
    INFO(f.collective << " " << f.algorithm);
    const CollectiveDescriptor& d = find_collective(f.collective);
    CHECK(d.supports(parse_algorithm(f.algorithm == "recursive_doubling" ? "rd" : f.algorithm)));
  }
}

TEST_CASE("the fit recovers a known alpha, beta and gamma within 1%", "[model]") {
  const FitReport fit = fit_results({synthetic("allreduce", 4, kTruth), synthetic("all_gather", 4, kTruth)});
  const GroupFit* g = fit.find({"tcp", "allreduce", "ring", 4, ""});
  REQUIRE(g != nullptr);
  REQUIRE(g->segments.size() == 1);
  const CostParams& p = g->segments[0].params;
  CHECK(p.alpha_us == Approx(25).epsilon(0.01));
  CHECK(p.bandwidth_gbps() == Approx(1.25).epsilon(0.01));
  CHECK(p.reduce_gbps() == Approx(5).epsilon(0.01));
  CHECK(g->segments[0].r2 == Approx(1).epsilon(1e-6));
  CHECK(g->segments[0].worst_error < 1e-6);
  CHECK_THAT(g->gamma_source, Catch::Contains("beta from all_gather ring tcp 4 ranks"));
  // Alone, the reduction cannot be told from the wire: beta carries it, and says so.
  const FitReport alone = fit_results({synthetic("allreduce", 4, kTruth)});
  CHECK_THAT(alone.groups[0].gamma_source, Catch::Contains("folded into beta"));
  CHECK(alone.groups[0].segments[0].params.gamma_us_per_byte == 0);
}

TEST_CASE("the fit of noisy points matches scipy's bounded least squares", "[model]") {
  // tests/fixtures/fit.json: scipy.optimize.lsq_linear on the same points (its script
  // says how it was made).
  const nlohmann::json ref = ccb::test::read_json(std::string(CCB_FIXTURES) + "/fit.json");
  std::vector<FitPoint> points;
  for (const auto& p : ref["points"]) points.push_back({p["ranks"].get<int>(), p["bytes"].get<double>(), p["time_us"].get<double>()});
  const GroupFit g = fit_group({"tcp", "allreduce", "ring", 4, ""}, points);
  REQUIRE(g.segments.size() == 1);  // 5% of noise is no reason to break
  CHECK(g.segments[0].params.alpha_us == Approx(ref["alpha_us"].get<double>()).epsilon(1e-6));
  CHECK(g.segments[0].params.beta_us_per_byte == Approx(ref["beta_us_per_byte"].get<double>()).epsilon(1e-6));
}

TEST_CASE("the fit over several world sizes, and its file", "[model]") {
  const FitReport fit = fit_results({synthetic("allreduce", 2, kTruth), synthetic("allreduce", 4, kTruth),
                                     synthetic("all_gather", 2, kTruth), synthetic("all_gather", 4, kTruth)});
  const GroupFit* all = fit.find({"tcp", "allreduce", "ring", 0, ""});
  REQUIRE(all != nullptr);
  CHECK(all->ranks_measured == std::vector<int>{2, 4});
  CHECK(all->predict_us(8, 16 * kMiB) == Approx(predict_us("allreduce", "ring", 8, 16 * kMiB, kTruth)).epsilon(0.01));
  const FitReport back = fit_from_json(fit_json(fit), "fit.json");
  REQUIRE(back.groups.size() == fit.groups.size());
  CHECK(back.find({"tcp", "allreduce", "ring", 0, ""})->segments[0].params.alpha_us == Approx(25).epsilon(0.01));
  CHECK_THROWS_WITH(fit_from_json("{\"schema\": \"ccbench.result/2\"}", "x.json"), Catch::Contains("is not a fit"));
  CHECK_THROWS_WITH(fit_from_json("[1,", "x.json"), Catch::Contains("not a fit file"));
  std::string hostile = fit_json(fit);
  const std::string bw = "\"bandwidth_gbps\": ";
  hostile.insert(hostile.find(bw) + bw.size(), "-");  // a negative bandwidth
  CHECK_THROWS_WITH(fit_from_json(hostile, "x.json"), Catch::Contains("bandwidth_gbps -") && Catch::Contains("must be a finite number above 0"));
}

TEST_CASE("a sweep one formula cannot fit is split where it breaks", "[model]") {
  // Eager up to 64 KiB (5 us a step), rendezvous above (a round trip more: 60 us).
  judge::ResultFile f = synthetic("all_gather", 4, {5, 1e-3 / 1.25, 0}, 4096, 64 * 1024);
  const judge::ResultFile big = synthetic("all_gather", 4, {60, 1e-3 / 1.25, 0}, 128 * 1024, 64 * kMiB);
  f.results.insert(f.results.end(), big.results.begin(), big.results.end());
  const FitReport fit = fit_results({f});
  const GroupFit& g = fit.groups.at(0);
  REQUIRE(g.segments.size() == 2);
  CHECK(g.segments[0].to_message == 16 * 1024);  // all_gather on 4 ranks: S/4 a step
  CHECK(g.segments[1].from_message == 32 * 1024);
  CHECK(g.segments[0].params.alpha_us == Approx(5).epsilon(0.01));
  CHECK(g.segments[1].params.alpha_us == Approx(60).epsilon(0.01));
}

TEST_CASE("fit refuses too few sizes and mixed machines", "[model]") {
  judge::ResultFile two = synthetic("allreduce", 4, kTruth, 4096, 8192);
  CHECK_THROWS_WITH(fit_results({two}), Catch::Contains("has 2 size(s); a fit needs 3 or more"));
  judge::ResultFile other = synthetic("all_gather", 4, kTruth);
  other.machine = "other x64";
  CHECK_THROWS_WITH(fit_results({synthetic("allreduce", 4, kTruth), other}), Catch::Contains("fit each machine's results on their own"));
}

TEST_CASE("a step's compute time from the model", "[model]") {
  const ModelConfig m = load_model("llama2-7b");
  const double params = static_cast<double>(parameter_count(m));
  const double per_token = 6 * params + 12.0 * 32 * 4096 * 4096;
  CHECK(training_flops_per_token(m) == Approx(per_token));
  const ComputeTime t = derive_compute_time(m, parse_tflops("a100"), 0.5);
  CHECK(t.ms == Approx(per_token * tokens_per_step(m) / (312e12 * 0.5) * 1e3));
  CHECK_THAT(t.how, Catch::Contains("312 TFLOPS x 0.50 MFU"));
  CHECK(derive_compute_time(m, 989, 0.5, 8).ms == Approx(per_token * tokens_per_step(m) / 8 / (989e12 * 0.5) * 1e3));
  CHECK(parse_tflops("h100") == 989);
  CHECK(parse_tflops("400") == 400);
  CHECK_THROWS_WITH(parse_tflops("v100"), Catch::Contains("a100, h100"));
  // A mixture of experts computes with the experts a token visits, not all of them.
  const ModelConfig moe = load_model("mixtral-8x7b");
  CHECK(active_parameters(moe) < 0.4 * static_cast<double>(parameter_count(moe)));
}

TEST_CASE("projecting a DDP step: the profile's calls at each scale", "[model]") {
  const CostParams net{2, 1e-3 / 12.5, 0};
  ProjectionInput in;
  in.model = load_model("llama2-7b");
  in.mode = ParallelMode::kDdp;
  in.ranks = {8, 64};
  in.compute_ms = 1000;
  const std::vector<ScaleRow> rows = project(Network::given(net, "test"), in);
  const Profile p = derive_profile(in.model, ParallelMode::kDdp);
  double expect = 0;
  for (const ProfileEntry& e : p.entries) expect += static_cast<double>(e.count) * predict_us("allreduce", "ring", 8, static_cast<double>(e.bytes), net);
  CHECK(rows[0].comm_ring_us == Approx(expect));
  CHECK(rows[0].step_ring_ms == Approx(1000 + expect / 1e3));
  CHECK(rows[0].efficiency_ring == 1);
  CHECK(rows[1].efficiency_ring < 1);
  CHECK(rows[1].comm_tree_us != rows[1].comm_ring_us);
}

// An --algo hier sweep of 2 hosts of 2 ranks whose legs follow known parameters: the
// fit recovers each leg as the flat collective it is, and a projection takes the
// within-host leg as its node's measured parameters.
TEST_CASE("model fit of a hier sweep fits both legs; project takes them as measured", "[model][hier]") {
  const CostParams within{5, 1e-4, 0}, across{50, 4e-3, 0};
  judge::ResultFile f = hier_file(2, 2);
  for (double s = 4096; s <= 64 * kMiB; s *= 2) {
    judge::HierLegs legs{0, predict_us("allreduce", "ring", 2, s / 2, across), 0, "ring", "ring", "shm"};
    legs.intra_before_us = legs.intra_after_us = predict_us("allreduce", "ring", 2, s, within) / 2;
    judge::Measured m = row("allreduce", 4, s, legs.intra_before_us + legs.inter_us + legs.intra_after_us);
    m.algorithm = "hier";
    m.legs = legs;
    f.results.push_back(m);
  }
  const FitReport fit = fit_results({f});
  check_legs(fit, "allreduce", 2);
  CHECK_THAT(fit_table(fit), Catch::Contains("allreduce ring shm 2 ranks (hier within hosts)") &&
                                 Catch::Contains("allreduce ring tcp 2 ranks (hier across hosts)"));
  const FitReport again = fit_from_json(fit_json(fit), "fit.json");
  CHECK(again.find({"shm", "allreduce", "ring", 2, kLegWithinHosts}) != nullptr);

  const Network net = Network::from_fit(again, "");
  CHECK(net.intra_measured());
  CHECK_THAT(net.source(), Catch::StartsWith("measured: fit of allreduce ring tcp 2 ranks (hier across hosts)"));
  CHECK_THAT(net.intra_source(), Catch::StartsWith("measured: fit of allreduce ring shm 2 ranks (hier within hosts)"));
  CHECK(net.intra_us("allreduce", "ring", 2, kMiB) == Approx(predict_us("allreduce", "ring", 2, kMiB, within)).epsilon(0.01));
  CHECK_FALSE(net.with_intra(CostParams{2, 1e-6, 0}, "given: flags").intra_measured());
}

// Each row as hier_collectives.cc runs it: ReduceScatter within then across the 1/K
// share, AllGather across the share then within. Broadcast's legs are rank 0's view of
// a root's sends, so they are not fitted.
TEST_CASE("model fit of hier ReduceScatter and AllGather sweeps fits each one's legs; Broadcast's are left out",
          "[model][hier]") {
  const CostParams within{5, 1e-4, 0}, across{50, 4e-3, 0};
  judge::ResultFile f = hier_file(4, 2);
  for (double s = 4096; s <= 64 * kMiB; s *= 2) {
    const double rs_in = predict_us("reduce_scatter", "ring", 2, s, within), rs_out = predict_us("reduce_scatter", "ring", 4, s / 2, across);
    const double ag_out = predict_us("all_gather", "ring", 4, s / 2, across), ag_in = predict_us("all_gather", "ring", 2, s, within);
    const double bc_out = predict_us("broadcast", "tree", 4, s, across), bc_in = predict_us("broadcast", "ring", 2, s, within);
    for (auto [collective, legs] : {std::pair{"reduce_scatter", judge::HierLegs{rs_in, rs_out, 0, "ring", "ring", "shm"}},
                                    std::pair{"all_gather", judge::HierLegs{0, ag_out, ag_in, "ring", "ring", "shm"}},
                                    std::pair{"broadcast", judge::HierLegs{0, bc_out, bc_in, "tree", "ring", "shm"}}}) {
      judge::Measured m = row(collective, 8, s, legs.intra_before_us + legs.inter_us + legs.intra_after_us);
      m.algorithm = "hier";
      m.legs = legs;
      f.results.push_back(m);
    }
    f.results.push_back(row("allreduce", 8, s, predict_us("allreduce", "ring", 8, s, across)));  // flat, for the projection
  }
  const FitReport fit = fit_results({f});
  for (const char* collective : {"reduce_scatter", "all_gather"}) {
    INFO(collective);
    check_legs(fit, collective, 4);
  }
  CHECK(fit.find({"shm", "broadcast", "ring", 2, kLegWithinHosts}) == nullptr);
  CHECK(fit.find({"tcp", "broadcast", "tree", 4, kLegAcrossHosts}) == nullptr);
  // With no AllReduce leg, the projection's within-node link is the ReduceScatter's.
  CHECK_THAT(Network::from_fit(fit, "").intra_source(),
             Catch::StartsWith("measured: fit of reduce_scatter ring shm 2 ranks (hier within hosts)"));
}

TEST_CASE("a group spanning nodes runs hierarchically, and layouts must fit", "[model]") {
  const CostParams inter{10, 1e-3 / 12.5, 0}, intra{1, 1e-3 / 150, 0};
  const Network net = Network::given(inter, "test").with_intra(intra, "test");
  const double s = 64 * kMiB;
  const double expect = predict_us("reduce_scatter", "ring", 8, s, intra) + predict_us("allreduce", "ring", 2, s / 8, inter) +
                        predict_us("all_gather", "ring", 8, s, intra);
  CHECK(group_call_us(net, "allreduce", "ring", 16, 1, 8, s) == Approx(expect));
  CHECK(group_call_us(net, "allreduce", "ring", 8, 1, 8, s) == Approx(predict_us("allreduce", "ring", 8, s, intra)));
  CHECK(group_call_us(net, "allreduce", "ring", 4, 8, 8, s) == Approx(predict_us("allreduce", "ring", 4, s, inter)));
  ProjectionInput in;
  in.model = load_model("llama2-70b");
  in.parallel = "tp=8,pp=4";
  in.ranks = {64, 80};
  in.gpus_per_node = 8;
  CHECK_THROWS_WITH(project(net, in), Catch::Contains("--ranks 80 does not fit --parallel tp=8,pp=4"));
  in.ranks = {64, 128};
  CHECK(project(net, in).size() == 2);
}

TEST_CASE("the study's table from two labelled runs", "[model]") {
  auto run = [](const std::string& transport, double comm_us, double busbw) {
    judge::ResultFile f;
    f.path = transport + ".json";
    f.transport = transport;
    f.ranks = 4;
    judge::Measured m = row("allreduce", 4, 25 * kMiB, comm_us / 10);
    m.profile = "bert-large:ddp";
    m.step_algorithm = "auto";
    m.count_per_step = 10;
    m.busbw_gbps = {busbw};
    f.results.push_back(m);
    f.steps.push_back({"profile", "bert-large:ddp", "BERT", "auto", {comm_us}, 10, 250 << 20});
    return f;
  };
  const Study s = build_study({{"fast", run("verbs", 100e3, 10)}, {"slow", run("tcp", 480e3, 2)}}, {100.0, 312, 0.4, "a100", {}});
  REQUIRE(s.profiles.size() == 1);
  const StudyProfile& p = s.profiles[0];
  CHECK(p.compute_ms == 100);
  REQUIRE(p.cells.size() == 2);
  CHECK(p.cells[0].comm_ms == Approx(100));
  CHECK(p.cells[1].comm_ms / p.cells[0].comm_ms == Approx(4.8));
  CHECK(p.cells[0].share == Approx(0.5));
  CHECK(p.cells[0].peak_gbit == Approx(80));
  CHECK(p.cells[0].mean_gbit == Approx(80));  // one kind of call: the mean is its rate
  CHECK_THAT(study_text(s), Catch::Contains("4.80x"));
  CHECK_THAT(study_json(s), Catch::Contains("\"speedup_over\""));
  CHECK_THROWS_WITH(build_study({{"a", run("tcp", 1, 1)}, {"a", run("tcp", 1, 1)}}, {}), Catch::Contains("two runs are labelled 'a'"));
  judge::ResultFile sweep;
  sweep.path = "sweep.json";
  CHECK_THROWS_WITH(build_study({{"x", sweep}}, {}), Catch::Contains("holds no profile step"));
}
