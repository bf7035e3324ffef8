// What one call of a collective costs, as the alpha-beta-gamma model (Hockney's, with
// Thakur, Rabenseifner and Gropp's reduction term) writes it for the algorithm ccbench
// runs:  t = alpha x A + beta x B + gamma x G, where
//   alpha: the latency of one message step (us),
//   beta:  the time per byte on the wire (us per byte; 1/beta is the link's bandwidth),
//   gamma: the time per byte reduced (us per byte),
// and A, B, G are the algorithm's step count and the bytes one rank sends and reduces
// on its busiest path, for n ranks and a buffer of S bytes (nccl-tests' size: the
// whole buffer; all_gather's output; reduce_scatter's input).
//
// Each formula sits in one row of cost_formulas.cc, beside the algorithm it describes;
// a collective without a row has no model (fit and project name it).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccb::model {

struct CostTerms {
  double steps = 0;         // A: messages on the critical path
  double wire_bytes = 0;    // B
  double reduce_bytes = 0;  // G
};

struct CostParams {
  double alpha_us = 0;
  double beta_us_per_byte = 0;
  double gamma_us_per_byte = 0;
  double bandwidth_gbps() const;  // 1/beta in GB/s (0 when beta is 0)
  double reduce_gbps() const;     // 1/gamma in GB/s (0 when gamma is 0)
};

struct CostFormula {
  std::string_view collective, algorithm;
  std::string_view text;  // "2(n-1)a + 2(n-1)/n S b + (n-1)/n S g"
  CostTerms (*terms)(int ranks, double bytes);
};

const std::vector<CostFormula>& cost_formulas();
// nullptr when the pair has no formula.
const CostFormula* find_formula(std::string_view collective, std::string_view algorithm);

double predict_us(const CostTerms& t, const CostParams& p);
// The formula's prediction; throws kInvalidArgument naming the pair when it has none.
double predict_us(std::string_view collective, std::string_view algorithm, int ranks, double bytes, const CostParams& p);

}  // namespace ccb::model
