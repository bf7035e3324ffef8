#include "judge/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"

namespace ccb::judge {
namespace {

// Ranks 1..n of the pooled values, ties given their average rank; also sum(t^3 - t)
// over the groups of t tied values.
std::vector<double> pooled_ranks(const std::vector<double>& v, double& tie_term) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> ranks(v.size());
  tie_term = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double avg = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2;
    for (size_t k = i; k <= j; ++k) ranks[order[k]] = avg;
    const double t = static_cast<double>(j - i + 1);
    tie_term += t * t * t - t;
    i = j + 1;
  }
  return ranks;
}

// P(U' >= u) under the null, for samples of m and n values (m the smaller). The number
// of orderings with U' = k is the coefficient of q^k in the Gaussian binomial
// [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built one factor at a
// time: multiply by (1 - q^(n+i)), then divide by (1 - q^i) (a running sum).
double exact_upper_tail(size_t m, size_t n, double u) {
  if (m > n) std::swap(m, n);
  const size_t top = m * n;
  std::vector<long double> c(top + 1, 0);
  c[0] = 1;
  for (size_t i = 1; i <= m; ++i) {
    for (size_t k = top; k >= n + i; --k) c[k] -= c[k - n - i];
    for (size_t k = i; k <= top; ++k) c[k] += c[k - i];
  }
  long double all = 0, tail = 0;
  const auto from = static_cast<long double>(std::ceil(u - 1e-9));
  for (size_t k = 0; k <= top; ++k) {
    all += c[k];
    if (static_cast<long double>(k) >= from) tail += c[k];
  }
  return static_cast<double>(tail / all);
}

bool has_ties(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) != v.end();
}

}  // namespace

UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || y.empty()) throw_invalid("a Mann-Whitney U test needs values on both sides");
  std::vector<double> pooled(x);
  pooled.insert(pooled.end(), y.begin(), y.end());
  if (std::any_of(pooled.begin(), pooled.end(), [](double v) { return std::isnan(v); }))
    throw_invalid("a Mann-Whitney U test cannot rank NaN");
  const double n1 = static_cast<double>(x.size()), n2 = static_cast<double>(y.size()), n = n1 + n2;
  double tie_term = 0;
  const std::vector<double> ranks = pooled_ranks(pooled, tie_term);
  const double r1 = std::accumulate(ranks.begin(), ranks.begin() + static_cast<long>(x.size()), 0.0);
  UTest t;
  t.u1 = r1 - n1 * (n1 + 1) / 2;
  const double u = std::max(t.u1, n1 * n2 - t.u1);
  t.exact = (x.size() <= 8 || y.size() <= 8) && !has_ties(pooled);
  if (t.exact) {
    t.p = 2 * exact_upper_tail(x.size(), y.size(), u);
  } else {
    const double s = std::sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
    t.p = s > 0 ? std::erfc((u - n1 * n2 / 2 - 0.5) / s / std::sqrt(2.0)) : 1;  // 2 (1 - Phi(z))
  }
  t.p = std::clamp(t.p, 0.0, 1.0);
  return t;
}

MedianSummary summarize_median(std::vector<double> v, double level) {
  MedianSummary s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = v[(n - 1) / 2];  // the lower middle: see the header
  // P(Binomial(n, 1/2) <= j) for growing j; the interval [x(k), x(n-k+1)] covers
  // 1 - 2 P(B <= k - 1).
  std::vector<long double> cdf(n + 1);
  long double pmf = std::pow(0.5L, static_cast<long double>(n)), acc = 0;
  for (size_t j = 0; j <= n; ++j) {
    acc += pmf;
    cdf[j] = acc;
    pmf = pmf * static_cast<long double>(n - j) / static_cast<long double>(j + 1);
  }
  size_t k = 1;  // [min, max]
  while (k + 1 <= (n + 1) / 2 && 1 - 2 * cdf[k] >= level) ++k;
  s.ci_low = v[k - 1];
  s.ci_high = v[n - k];
  s.ci_coverage = static_cast<double>(1 - 2 * cdf[k - 1]);
  return s;
}

double geometric_mean(const std::vector<double>& ratios) {
  if (ratios.empty()) return 1;
  double log_sum = 0;
  for (double r : ratios) log_sum += std::log(r);
  return std::exp(log_sum / static_cast<double>(ratios.size()));
}

}  // namespace ccb::judge
