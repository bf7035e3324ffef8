#include "model/least_squares.h"

#include <cmath>

namespace ccb::model {
namespace {

// The best value of parameter k alone (the other fixed at 0).
std::optional<double> fit_one(const std::vector<Observation>& obs, size_t k) {
  double num = 0, den = 0;
  for (const Observation& o : obs) {
    const double r = o.row[k] / o.value;
    num += r;  // target 1 after dividing by the value
    den += r * r;
  }
  if (den <= 0) return std::nullopt;
  return std::max(0.0, num / den);
}

double relative_sse(const std::vector<Observation>& obs, const std::array<double, 2>& x) {
  double sse = 0;
  for (const Observation& o : obs) {
    const double e = (o.row[0] * x[0] + o.row[1] * x[1] - o.value) / o.value;
    sse += e * e;
  }
  return sse;
}

}  // namespace

std::optional<std::array<double, 2>> fit_relative(const std::vector<Observation>& obs) {
  // Normal equations of the scaled rows (row / t against 1).
  double s00 = 0, s01 = 0, s11 = 0, b0 = 0, b1 = 0;
  for (const Observation& o : obs) {
    const double r0 = o.row[0] / o.value, r1 = o.row[1] / o.value;
    s00 += r0 * r0, s01 += r0 * r1, s11 += r1 * r1, b0 += r0, b1 += r1;
  }
  const double det = s00 * s11 - s01 * s01;
  if (det > 1e-12 * s00 * s11 && std::isfinite(det)) {
    const std::array<double, 2> x{(b0 * s11 - b1 * s01) / det, (b1 * s00 - b0 * s01) / det};
    if (x[0] >= 0 && x[1] >= 0) return x;
  }
  // On the boundary: the better of the two one-parameter fits.
  std::optional<std::array<double, 2>> best;
  for (size_t k : {size_t{0}, size_t{1}}) {
    const std::optional<double> v = fit_one(obs, k);
    if (!v) continue;
    std::array<double, 2> x{0, 0};
    x[k] = *v;
    if (!best || relative_sse(obs, x) < relative_sse(obs, *best)) best = x;
  }
  return best;
}

}  // namespace ccb::model
