// Which part of the fabric the slow pairs blame: Boolean tomography over the paths the
// topology gives (after NetBouncer, NSDI'19, and 007, NSDI'18, which blame the links
// that bad paths share).
//
// The slow pairs are those fabric_rule.h calls slow. Every element that a measured pair crosses is weighed by the share of its crossing
// pairs that are slow. Those with at least `blame_frac` of them slow (and `min_slow`
// slow pairs) are candidates. Then, greedily, the candidate that explains the most slow
// pairs not yet explained is named, the element with the higher slow share first, until
// no candidate explains any: the smallest set of elements that explains the slow pairs,
// as far as a greedy cover finds it. A host's cable is weighed like any other element, so
// a host is named when its own cable explains its slow pairs better than any switch
// port does. Candidates that explain the same slow pairs with the same share cannot be
// told apart by the pairs measured: they are named together, as one finding of several.
#pragma once
#include <string>
#include <vector>

#include "fabric/topology.h"
#include "judge/pair_scan.h"

namespace ccb::fabric {

struct LocalizeLimits {
  double blame_frac = 0.5;
  size_t min_slow = 2;
};

struct ElementWeight {
  size_t element = 0;
  size_t crossing = 0, slow = 0;  // measured pairs that cross it, and of them the slow ones
  double median_ratio = 0;        // the crossing pairs' median bandwidth against a healthy path's (fabric_rule.h)
  double slow_share() const { return crossing ? static_cast<double>(slow) / static_cast<double>(crossing) : 0; }
};

struct Finding {
  std::vector<ElementWeight> elements;  // one; several when the pairs cannot tell them apart
  size_t explained = 0;                 // slow pairs it explains that no finding before it did
};

struct Localization {
  size_t pairs = 0, slow = 0;
  std::vector<Finding> findings;
  std::vector<ElementWeight> weighed;          // the candidates not named, the highest share first
  std::vector<judge::SlowPair> unexplained;    // slow pairs that no finding explains
  bool pass() const { return slow == 0; }
};

Localization localize(const Topology& t, const std::vector<judge::PairFigure>& pairs, const std::vector<judge::SlowPair>& slow,
                      const LocalizeLimits& limits = {});

// One line per finding and per unexplained pair, or one PASS line.
std::vector<std::string> localization_lines(const Topology& t, const Localization& l);

}  // namespace ccb::fabric
