// Linear least squares in relative error: the parameters x >= 0 that minimise
// sum_i ((row_i . x - t_i) / t_i)^2, which weighs a 64 B call's microseconds as much as
// a 1 GiB call's seconds (a plain fit would see only the large sizes).
#pragma once
#include <array>
#include <optional>
#include <vector>

namespace ccb::model {

struct Observation {
  std::array<double, 2> row;  // the coefficients of the parameters
  double value = 0;           // > 0
};

// Two parameters, neither negative: when the unconstrained optimum has one below zero
// it is fixed at zero and the other fitted alone. nullopt when no row has a positive
// coefficient for either.
std::optional<std::array<double, 2>> fit_relative(const std::vector<Observation>& obs);

}  // namespace ccb::model
