#include "model/projection.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "core/units.h"

namespace ccb::model {
namespace {

// The fit over every world size, else the widest: of a flat sweep, or of one of a hier
// sweep's legs (`leg`).
const GroupFit* best_group(const FitReport& fit, const std::string& transport, const std::string& collective,
                           const std::string& algorithm, const std::string& leg = "") {
  if (const GroupFit* all = fit.find({transport, collective, algorithm, 0, leg})) return all;
  const GroupFit* widest = nullptr;
  for (const GroupFit& g : fit.groups)
    if (g.key.transport == transport && g.key.collective == collective && g.key.algorithm == algorithm && g.key.leg == leg &&
        (widest == nullptr || g.key.ranks > widest->key.ranks))
      widest = &g;
  return widest;
}

// The within-host leg of a hier sweep: what a node's ranks measured among themselves.
// AllReduce's first (the collective projections price most), then the other ring legs,
// each the widest host it was measured on: every leg fits the same link's a and b.
const GroupFit* within_host_leg(const FitReport& fit) {
  for (const char* collective : {"allreduce", "reduce_scatter", "all_gather"}) {
    const GroupFit* widest = nullptr;
    for (const GroupFit& g : fit.groups)
      if (g.key.leg == kLegWithinHosts && g.key.collective == collective && (widest == nullptr || g.key.ranks > widest->key.ranks))
        widest = &g;
    if (widest != nullptr) return widest;
  }
  return nullptr;
}

std::string ranks_text(const GroupFit& g) {
  std::string ranks;
  for (int r : g.ranks_measured) {
    if (!ranks.empty()) ranks += ',';
    ranks += std::to_string(r);
  }
  return ranks;
}

// "fit of allreduce ring tcp 4 ranks (ranks 4) on host (cpu): from 64 KiB a step, a 3.1 us, ..."
std::string fit_source(const FitReport& fit, const GroupFit& g) {
  char buf[512];
  const FitSegment& s = g.segments.back();
  std::snprintf(buf, sizeof buf, "fit of %s (ranks %s) on %s (%s): from %s a step, a %.1f us, %.3f GB/s, R2 %.4f",
                g.key.describe().c_str(), ranks_text(g).c_str(), fit.host.c_str(), fit.machine.c_str(),
                format_bytes(static_cast<uint64_t>(s.from_message)).c_str(), s.params.alpha_us, s.params.bandwidth_gbps(), s.r2);
  return buf;
}

struct Placement {
  int local = 1, nodes = 1;  // members per node, nodes spanned
};
Placement place(int group, int stride, int gpus_per_node) {
  const int local = stride >= gpus_per_node ? 1 : std::max(1, std::min(group, gpus_per_node / stride));
  return {local, std::max(1, group / local)};
}

}  // namespace

Network Network::from_fit(const FitReport& fit, const std::string& transport) {
  std::vector<std::string> transports;  // of what ran across hosts, or flat
  for (const GroupFit& g : fit.groups)
    if (g.key.leg != kLegWithinHosts && std::find(transports.begin(), transports.end(), g.key.transport) == transports.end())
      transports.push_back(g.key.transport);
  std::string chosen = transport;
  if (chosen.empty() && transports.size() == 1) chosen = transports.front();
  const GroupFit* ring = chosen.empty() ? nullptr : best_group(fit, chosen, "allreduce", "ring");
  if (ring == nullptr && !chosen.empty()) ring = best_group(fit, chosen, "allreduce", "ring", kLegAcrossHosts);
  if (ring == nullptr) {
    std::string names;
    for (const std::string& t : transports) {
      if (!names.empty()) names += ", ";
      names += t;
    }
    throw_invalid("--fit holds no allreduce ring fit" + (chosen.empty() ? std::string() : " on " + chosen) +
                  " (it has: " + names + "): pick one with --transport, or fit a sweep of allreduce --algo ring");
  }
  if (ring->segments.back().params.beta_us_per_byte <= 0)
    throw_invalid("--fit: " + ring->key.describe() + " shows no cost per byte up to " +
                  format_bytes(static_cast<uint64_t>(ring->largest_bytes())) +
                  ", so it cannot say what a link moves: fit a sweep to larger sizes (-e 64M or more)");
  Network n;
  n.fit_ = fit;
  n.transport_ = chosen;
  n.inter_ = ring->segments.back().params;
  n.source_ = "measured: " + fit_source(fit, *ring);
  n.intra_ = n.inter_;
  if (const GroupFit* within = within_host_leg(fit)) {
    n.intra_ = within->segments.back().params;
    n.intra_source_ = "measured: " + fit_source(fit, *within);
  }
  return n;
}

Network Network::given(CostParams inter, std::string describe) {
  Network n;
  n.inter_ = n.intra_ = inter;
  n.source_ = std::move(describe);
  return n;
}

Network Network::with_intra(CostParams intra, std::string describe) const {
  Network n = *this;
  n.intra_ = intra;
  n.intra_source_ = std::move(describe);
  return n;
}

double Network::inter_us(const std::string& collective, const std::string& algorithm, int ranks, double bytes) const {
  if (fit_)
    if (const GroupFit* g = best_group(*fit_, transport_, collective, algorithm))
      return predict_us(collective, algorithm, ranks, bytes, g->segment_for(ranks, bytes).params);
  return predict_us(collective, algorithm, ranks, bytes, inter_);
}

double Network::intra_us(const std::string& collective, const std::string& algorithm, int ranks, double bytes) const {
  return predict_us(collective, algorithm, ranks, bytes, intra_);
}

std::string Network::extrapolation(int ranks, double max_bytes) const {
  if (!fit_) return "";
  const GroupFit* ring = best_group(*fit_, transport_, "allreduce", "ring");
  if (ring == nullptr) ring = best_group(*fit_, transport_, "allreduce", "ring", kLegAcrossHosts);
  const int measured = ring->ranks_measured.empty() ? ring->key.ranks : ring->ranks_measured.back();
  const double top = ring->largest_bytes();
  char buf[256];
  std::snprintf(buf, sizeof buf, "%.0fx the %d ranks measured; messages up to %s against %s measured",
                static_cast<double>(ranks) / std::max(1, measured), measured,
                format_bytes(static_cast<uint64_t>(max_bytes)).c_str(), format_bytes(static_cast<uint64_t>(top)).c_str());
  return buf;
}

double group_call_us(const Network& net, const std::string& collective, const std::string& algorithm, int group,
                     int stride, int gpus_per_node, double bytes) {
  if (group <= 1) return 0;
  const Placement p = place(group, stride, gpus_per_node);
  if (p.local == 1) return net.inter_us(collective, algorithm, group, bytes);
  if (p.nodes == 1) return net.intra_us(collective, algorithm, group, bytes);
  const double share = bytes / p.local;
  if (collective == "allreduce")
    return net.intra_us("reduce_scatter", "ring", p.local, bytes) + net.inter_us("allreduce", algorithm, p.nodes, share) +
           net.intra_us("all_gather", "ring", p.local, bytes);
  if (collective == "reduce_scatter")
    return net.intra_us("reduce_scatter", "ring", p.local, bytes) + net.inter_us("reduce_scatter", "ring", p.nodes, share);
  if (collective == "all_gather")
    return net.inter_us("all_gather", "ring", p.nodes, share) + net.intra_us("all_gather", "ring", p.local, bytes);
  return net.inter_us(collective, algorithm, group, bytes);
}

}  // namespace ccb::model
