#include "fabric/localize.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "fabric/fabric_rule.h"

namespace ccb::fabric {
namespace {

constexpr size_t kWeighedShown = 3;

uint64_t key(int a, int b) { return static_cast<uint64_t>(a) << 32 | static_cast<uint32_t>(b); }

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

std::string weight_text(const Topology& t, const ElementWeight& w) {
  char b[96];
  std::snprintf(b, sizeof b, " (%zu of %zu slow, median %.2fx)", w.slow, w.crossing, w.median_ratio);
  return t.element_name(w.element) + b;
}

// Every element's crossings, and which slow pairs cross it.
struct Tally {
  std::vector<size_t> crossing, slow;
  std::vector<std::vector<size_t>> slow_pairs;  // [element]: indices into the slow list
};

Tally tally(const Topology& t, const std::vector<judge::PairFigure>& pairs, const std::unordered_map<uint64_t, size_t>& slow_index) {
  Tally y{std::vector<size_t>(t.element_count(), 0), std::vector<size_t>(t.element_count(), 0),
          std::vector<std::vector<size_t>>(t.element_count())};
  std::vector<size_t> path;
  for (const judge::PairFigure& p : pairs) {
    t.path(p.a, p.b, path);
    auto s = slow_index.find(key(p.a, p.b));
    for (size_t e : path) {
      ++y.crossing[e];
      if (s == slow_index.end()) continue;
      ++y.slow[e];
      y.slow_pairs[e].push_back(s->second);
    }
  }
  return y;
}

// The crossing pairs' median bandwidth against a healthy path's, for the elements shown.
void fill_ratios(const Topology& t, const std::vector<judge::PairFigure>& pairs, std::vector<ElementWeight*> weights) {
  std::unordered_map<size_t, std::vector<double>> ratios;
  for (ElementWeight* w : weights) ratios[w->element];
  const FabricReference ref = fabric_reference(t, pairs);
  std::vector<size_t> path;
  for (const judge::PairFigure& p : pairs) {
    t.path(p.a, p.b, path);
    for (size_t e : path)
      if (auto r = ratios.find(e); r != ratios.end()) r->second.push_back(reference_ratio(t, p, ref));
  }
  for (ElementWeight* w : weights) w->median_ratio = median_of(ratios[w->element]);
}

std::vector<size_t> still_unexplained(const std::vector<size_t>& of, const std::vector<bool>& explained) {
  std::vector<size_t> out;
  for (size_t i : of)
    if (!explained[i]) out.push_back(i);
  return out;
}

}  // namespace

Localization localize(const Topology& t, const std::vector<judge::PairFigure>& pairs, const std::vector<judge::SlowPair>& slow,
                      const LocalizeLimits& limits) {
  Localization l;
  l.pairs = pairs.size();
  l.slow = slow.size();
  std::unordered_map<uint64_t, size_t> slow_index;
  for (size_t i = 0; i < slow.size(); ++i) slow_index[key(slow[i].a, slow[i].b)] = i;
  const Tally y = tally(t, pairs, slow_index);
  std::vector<ElementWeight> candidates, others;
  for (size_t e = 0; e < t.element_count(); ++e) {
    if (y.slow[e] == 0) continue;
    const ElementWeight w{e, y.crossing[e], y.slow[e], 0};
    (w.slow >= limits.min_slow && w.slow_share() >= limits.blame_frac ? candidates : others).push_back(w);
  }
  auto by_share = [](const ElementWeight& p, const ElementWeight& q) { return p.slow_share() > q.slow_share(); };
  std::stable_sort(candidates.begin(), candidates.end(), by_share);
  std::vector<bool> explained(slow.size(), false), named(candidates.size(), false);
  while (true) {
    size_t best = SIZE_MAX, best_gain = 0;
    for (size_t c = 0; c < candidates.size(); ++c) {
      const size_t g = named[c] ? 0 : still_unexplained(y.slow_pairs[candidates[c].element], explained).size();
      if (g > best_gain) best = c, best_gain = g;  // sorted by share: the first of equal gain has the higher share
    }
    if (best == SIZE_MAX) break;
    const std::vector<size_t> explains = still_unexplained(y.slow_pairs[candidates[best].element], explained);
    Finding f{{}, explains.size()};
    for (size_t c = best; c < candidates.size(); ++c)
      if (!named[c] && candidates[c].slow_share() == candidates[best].slow_share() &&
          still_unexplained(y.slow_pairs[candidates[c].element], explained) == explains) {
        named[c] = true;
        f.elements.push_back(candidates[c]);
      }
    for (size_t i : explains) explained[i] = true;
    l.findings.push_back(std::move(f));
  }
  for (size_t c = 0; c < candidates.size(); ++c)
    if (!named[c]) l.weighed.push_back(candidates[c]);
  std::stable_sort(others.begin(), others.end(), by_share);
  for (size_t i = 0; i < others.size() && l.weighed.size() < kWeighedShown; ++i) l.weighed.push_back(others[i]);
  for (size_t i = 0; i < slow.size(); ++i)
    if (!explained[i]) l.unexplained.push_back(slow[i]);
  std::vector<ElementWeight*> shown;
  for (Finding& f : l.findings)
    for (ElementWeight& w : f.elements) shown.push_back(&w);
  for (ElementWeight& w : l.weighed) shown.push_back(&w);
  if (!pairs.empty()) fill_ratios(t, pairs, shown);
  return l;
}

std::vector<std::string> localization_lines(const Topology& t, const Localization& l) {
  if (l.pass()) return {"scan: PASS: " + std::to_string(l.pairs) + " pairs over " + t.source + ", none slow"};
  std::string weighed;
  for (size_t i = 0; i < l.weighed.size() && i < kWeighedShown; ++i) weighed += (i ? "; " : "") + weight_text(t, l.weighed[i]);
  const std::string also = weighed.empty() ? "" : "; also weighed: " + weighed;
  std::vector<std::string> out;
  for (const Finding& f : l.findings) {
    const ElementWeight& w = f.elements.front();
    char figures[160];
    std::snprintf(figures, sizeof figures, "%zu of %zu pairs that cross it are slow (median %.2fx); it explains %zu of the %zu slow pairs",
                  w.slow, w.crossing, w.median_ratio, f.explained, l.slow);
    if (f.elements.size() == 1) {
      out.push_back("scan: FAIL: " + t.element_name(w.element) + ": " + figures + also);
      continue;
    }
    std::string names;
    for (size_t i = 0; i < f.elements.size(); ++i)
      names += (i == 0 ? "" : i + 1 == f.elements.size() ? " or " : ", ") + t.element_name(f.elements[i].element);
    out.push_back("scan: FAIL: one of " + names + ", which the pairs measured cannot tell apart: each has " + figures +
                  " (a fabric with more leaves or spines, or a test of each alone, would tell)" + also);
  }
  for (const judge::SlowPair& p : l.unexplained)
    out.push_back("scan: FAIL: the path between " + t.hosts[static_cast<size_t>(p.a)] + " and " + t.hosts[static_cast<size_t>(p.b)] +
                  " is slow (" + (p.slow_bw ? "bandwidth" : "latency") + "), and no element it crosses is slow for its other pairs");
  return out;
}

}  // namespace ccb::fabric
