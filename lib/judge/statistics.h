// The statistics that judging rests on. Pure functions of numbers, checked against an
// independent reference (scipy.stats, as committed fixtures) in the tests.
//
// Mann-Whitney U, two-sided, as scipy.stats.mannwhitneyu (1.10) computes it by default:
//  - ranks with ties averaged; U1 = R1 - n1(n1+1)/2, and the test uses U = max(U1, U2);
//  - exact when one sample has at most 8 values and no value repeats: p = 2 P(U' >= U)
//    over the exact null distribution of U (every ordering equally likely);
//  - otherwise the normal approximation, corrected for ties and for continuity:
//    z = (U - n1 n2 / 2 - 1/2) / s, s^2 = n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n(n - 1))),
//    p = 2 (1 - Phi(z)); p is clipped to [0, 1].
#pragma once
#include <cstddef>
#include <vector>

namespace ccb::judge {

struct UTest {
  double u1 = 0;        // the statistic of the first sample
  double p = 1;         // two-sided
  bool exact = false;   // false: the normal approximation
};

// Throws kInvalidArgument when a sample is empty or holds a NaN.
UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

// The median, and a distribution-free confidence interval for it from order
// statistics: the widest [x(k), x(n-k+1)] whose coverage 1 - 2 P(Binomial(n, 1/2) < k)
// is at least `level`. Fewer than 6 values cannot reach 95%: then [min, max], with the
// coverage it does have.
// The median of an even count is the lower of the two middle values, never their mean:
// over passes it is then a pass that ran (run's table row, the record's top-level
// figures), and run, compare and history quote one number for one file.
struct MedianSummary {
  size_t n = 0;
  double median = 0, min = 0, max = 0;
  double ci_low = 0, ci_high = 0;
  double ci_coverage = 0;  // the interval's actual coverage
};
MedianSummary summarize_median(std::vector<double> values, double level = 0.95);

// Geometric mean of positive ratios; 1 for none.
double geometric_mean(const std::vector<double>& ratios);

}  // namespace ccb::judge
