#include "model/cost_formulas.h"

#include <cmath>

#include "core/error.h"

namespace ccb::model {
namespace {

double part(int n) { return static_cast<double>(n - 1) / n; }  // (n-1)/n
double depth(int n) { return n > 1 ? std::ceil(std::log2(static_cast<double>(n))) : 0; }

// Ring AllReduce: a reduce-scatter and an all-gather, n-1 steps each; every rank sends
// 2(n-1)/n S and reduces (n-1)/n S.
CostTerms ring_allreduce(int n, double s) { return {2.0 * (n - 1), 2 * part(n) * s, part(n) * s}; }
// Double binary tree, pipelined: the chunks climb log2(n) levels and come back down.
// Each rank is inner in one tree (two children, one parent) and a leaf in the other,
// each tree carrying S/2, so each direction of its link carries 2S over the call and
// it reduces S. On 2 ranks each is the other's root: S each way, S/2 reduced.
CostTerms tree_allreduce(int n, double s) {
  if (n <= 2) return {2 * depth(n), n == 2 ? s : 0, n == 2 ? s / 2 : 0};
  return {2 * depth(n), 2 * s, s};
}
// Recursive doubling: log2(n) exchanges of the whole buffer, each reduced.
CostTerms doubling_allreduce(int n, double s) { return {depth(n), depth(n) * s, depth(n) * s}; }
CostTerms ring_reduce_scatter(int n, double s) { return {1.0 * (n - 1), part(n) * s, part(n) * s}; }
CostTerms ring_all_gather(int n, double s) { return {1.0 * (n - 1), part(n) * s, 0}; }
// Pipelined chain from the root: n-1 hops to fill, then S streams through each link.
CostTerms ring_broadcast(int n, double s) { return {1.0 * (n - 1), n > 1 ? s : 0, 0}; }
// Binary tree, pipelined: an inner rank sends S to each of two children.
CostTerms tree_broadcast(int n, double s) { return {depth(n), n > 2 ? 2 * s : (n > 1 ? s : 0), 0}; }
CostTerms ring_reduce(int n, double s) { return {1.0 * (n - 1), n > 1 ? s : 0, n > 1 ? s : 0}; }
// Binary tree, pipelined: an inner rank receives S from each of two children and
// reduces both into its own.
CostTerms tree_reduce(int n, double s) { return {depth(n), n > 2 ? 2 * s : (n > 1 ? s : 0), n > 2 ? 2 * s : (n > 1 ? s : 0)}; }
// Pairwise exchange: n-1 steps, each sending one part of S/n.
CostTerms direct_all_to_all(int n, double s) { return {1.0 * (n - 1), part(n) * s, 0}; }
// The root sends or receives every other rank's part.
CostTerms direct_gather(int n, double s) { return {1.0 * (n - 1), part(n) * s, 0}; }
CostTerms direct_send_recv(int, double s) { return {1, s, 0}; }

}  // namespace

double CostParams::bandwidth_gbps() const { return beta_us_per_byte > 0 ? 1e-3 / beta_us_per_byte : 0; }
double CostParams::reduce_gbps() const { return gamma_us_per_byte > 0 ? 1e-3 / gamma_us_per_byte : 0; }

const std::vector<CostFormula>& cost_formulas() {
  static const std::vector<CostFormula> rows{
      {"allreduce", "ring", "2(n-1)a + 2(n-1)/n S b + (n-1)/n S g", ring_allreduce},
      {"allreduce", "tree", "2 log2(n) a + 2 S b + S g (2 ranks: S b + S/2 g)", tree_allreduce},
      {"allreduce", "recursive_doubling", "log2(n) a + log2(n) S b + log2(n) S g", doubling_allreduce},
      {"reduce_scatter", "ring", "(n-1)a + (n-1)/n S b + (n-1)/n S g", ring_reduce_scatter},
      {"all_gather", "ring", "(n-1)a + (n-1)/n S b", ring_all_gather},
      {"broadcast", "ring", "(n-1)a + S b", ring_broadcast},
      {"broadcast", "tree", "log2(n) a + 2 S b", tree_broadcast},
      {"reduce", "ring", "(n-1)a + S b + S g", ring_reduce},
      {"reduce", "tree", "log2(n) a + 2 S b + 2 S g", tree_reduce},
      {"all_to_all", "direct", "(n-1)a + (n-1)/n S b", direct_all_to_all},
      {"gather", "direct", "(n-1)a + (n-1)/n S b", direct_gather},
      {"scatter", "direct", "(n-1)a + (n-1)/n S b", direct_gather},
      {"send_recv", "direct", "a + S b", direct_send_recv},
  };
  return rows;
}

const CostFormula* find_formula(std::string_view collective, std::string_view algorithm) {
  for (const CostFormula& f : cost_formulas())
    if (f.collective == collective && f.algorithm == algorithm) return &f;
  return nullptr;
}

double predict_us(const CostTerms& t, const CostParams& p) {
  return p.alpha_us * t.steps + p.beta_us_per_byte * t.wire_bytes + p.gamma_us_per_byte * t.reduce_bytes;
}

double predict_us(std::string_view collective, std::string_view algorithm, int ranks, double bytes, const CostParams& p) {
  const CostFormula* f = find_formula(collective, algorithm);
  if (f == nullptr)
    throw_invalid("no cost model for " + std::string(collective) + " " + std::string(algorithm) +
                  ": lib/model/cost_formulas.cc lists the ones there are");
  return predict_us(f->terms(ranks, bytes), p);
}

}  // namespace ccb::model
