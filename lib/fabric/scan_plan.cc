#include "fabric/scan_plan.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <random>

#include "core/error.h"
#include "judge/pair_scan.h"

namespace ccb::fabric {
namespace {

constexpr int kDefaultCrossings = 3;
constexpr int kMaxK = 100000;
constexpr int kMaxCrossLeafRounds = 4096;
constexpr int kDrawsPerRound = 8;

void pair_up(std::vector<int>& partner, int a, int b) {
  partner[static_cast<size_t>(a)] = b;
  partner[static_cast<size_t>(b)] = a;
}

std::vector<int> nobody_paired(int n) {
  std::vector<int> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  return p;
}

// Every leaf's own round robin, side by side: the leaf with the most hosts sets the count.
Rounds within_leaves(const Topology& t) {
  std::vector<std::vector<int>> members(t.leaves.size());
  for (int h = 0; h < t.host_count(); ++h) members[static_cast<size_t>(t.host_leaf[static_cast<size_t>(h)])].push_back(h);
  Rounds rounds;
  for (const auto& m : members) {
    const Rounds local = judge::round_robin_partners(static_cast<int>(m.size()));
    if (rounds.size() < local.size()) rounds.resize(local.size(), nobody_paired(t.host_count()));
    for (size_t r = 0; r < local.size(); ++r)
      for (size_t i = 0; i < m.size(); ++i)
        if (local[r][i] != static_cast<int>(i)) rounds[r][static_cast<size_t>(m[i])] = m[static_cast<size_t>(local[r][i])];
  }
  return rounds;
}

// A random round: the hosts shuffled and paired in turn, pairs on one leaf skipped when
// `cross_only` (a host left without a partner sits out).
std::vector<int> random_round(const Topology& t, std::mt19937_64& rng, bool cross_only) {
  std::vector<int> order = nobody_paired(t.host_count());
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> partner = nobody_paired(t.host_count());
  std::vector<int> waiting;
  for (int h : order) {
    auto match = std::find_if(waiting.begin(), waiting.end(), [&](int w) {
      return !cross_only || t.host_leaf[static_cast<size_t>(w)] != t.host_leaf[static_cast<size_t>(h)];
    });
    if (match == waiting.end()) {
      waiting.push_back(h);
      continue;
    }
    pair_up(partner, *match, h);
    waiting.erase(match);
  }
  return partner;
}

// Crossings per element of what `round` measures, added to `count`.
void count_round(const std::vector<int>& round, const Topology& t, std::vector<size_t>& count) {
  std::vector<size_t> path;
  for (size_t a = 0; a < round.size(); ++a) {
    const int b = round[a];
    if (b <= static_cast<int>(a)) continue;
    t.path(static_cast<int>(a), b, path);
    for (size_t e : path) ++count[e];
  }
}

// How much a round adds toward `need` crossings of every existing element.
size_t gain(const std::vector<int>& round, const Topology& t, const std::vector<size_t>& count, size_t need) {
  std::vector<size_t> after = count;
  count_round(round, t, after);
  size_t g = 0;
  for (size_t e = 0; e < count.size(); ++e)
    if (t.exists(e)) g += std::min(after[e], need) - std::min(count[e], need);
  return g;
}

// The elements some pair's route crosses: an uplink of a leaf without hosts, or one that
// no pair's route picks, cannot be covered by any plan, and is not asked to be.
std::vector<bool> crossable(const Topology& t) {
  std::vector<bool> out(t.element_count(), false);
  std::vector<size_t> path;
  for (int a = 0; a < t.host_count(); ++a)
    for (int b = a + 1; b < t.host_count(); ++b) {
      t.path(a, b, path);
      for (size_t e : path) out[e] = true;
    }
  return out;
}

bool all_covered(const Topology& t, const std::vector<bool>& can, const std::vector<size_t>& count, size_t need, ElementKind only) {
  for (size_t e = 0; e < count.size(); ++e)
    if (t.kind(e) == only && can[e] && count[e] < need) return false;
  return true;
}

// Rounds drawn to cover: of kDrawsPerRound random rounds, the one that adds the most.
std::vector<int> best_draw(const Topology& t, std::mt19937_64& rng, bool cross_only, const std::vector<size_t>& count, size_t need) {
  std::vector<int> best;
  size_t best_gain = 0;
  for (int d = 0; d < kDrawsPerRound; ++d) {
    std::vector<int> r = random_round(t, rng, cross_only);
    const size_t g = gain(r, t, count, need);
    if (best.empty() || g > best_gain) {
      best = std::move(r);
      best_gain = g;
    }
  }
  return best;
}

Rounds leaf_first(const Topology& t, int k, uint64_t seed) {
  Rounds rounds = within_leaves(t);
  if (t.leaves.size() < 2) return rounds;
  std::vector<size_t> count(t.element_count(), 0);
  std::mt19937_64 rng(seed);
  const std::vector<bool> can = crossable(t);
  for (int r = 0; !all_covered(t, can, count, static_cast<size_t>(k), ElementKind::kUplink); ++r) {
    if (r == kMaxCrossLeafRounds) throw_invalid("--plan leaf-first:" + std::to_string(k) + " found no cover in 4096 rounds");
    rounds.push_back(best_draw(t, rng, true, count, static_cast<size_t>(k)));
    count_round(rounds.back(), t, count);
  }
  return rounds;
}

Rounds sample(const Topology& t, int k, uint64_t seed) {
  std::vector<size_t> count(t.element_count(), 0);
  std::mt19937_64 rng(seed);
  Rounds rounds;
  for (int r = 0; r < k; ++r) {
    rounds.push_back(best_draw(t, rng, false, count, 1));
    count_round(rounds.back(), t, count);
  }
  const std::vector<bool> can = crossable(t);
  for (ElementKind kind : {ElementKind::kHostCable, ElementKind::kUplink})
    if (!all_covered(t, can, count, 1, kind))
      throw_invalid("--plan sample:" + std::to_string(k) + " leaves some " + (kind == ElementKind::kUplink ? "uplinks" : "hosts") +
                    " of " + t.source + " unmeasured: raise K, or use leaf-first");
  return rounds;
}

}  // namespace

std::string ScanPlan::text() const {
  switch (kind) {
    case PlanKind::kFull: return "full";
    case PlanKind::kLeafFirst: return "leaf-first:" + std::to_string(k);
    case PlanKind::kSample: return "sample:" + std::to_string(k);
  }
  return "?";
}

ScanPlan parse_plan(const std::string& text) {
  auto k_of = [&text](std::string_view digits) {
    int k = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    if (ec != std::errc() || end != digits.data() + digits.size() || k < 1 || k > kMaxK)
      throw_invalid("--plan " + text + ": K must be a whole number from 1 to " + std::to_string(kMaxK));
    return k;
  };
  const std::string_view t(text);
  if (t == "full") return {PlanKind::kFull, 0};
  if (t == "leaf-first") return {PlanKind::kLeafFirst, kDefaultCrossings};
  if (t.starts_with("leaf-first:")) return {PlanKind::kLeafFirst, k_of(t.substr(11))};
  if (t.starts_with("sample:")) return {PlanKind::kSample, k_of(t.substr(7))};
  throw_invalid("--plan '" + text + "': use full, leaf-first, leaf-first:K or sample:K");
}

Rounds plan_rounds(const ScanPlan& plan, const Topology& t, uint64_t seed) {
  switch (plan.kind) {
    case PlanKind::kFull: return judge::round_robin_partners(t.host_count());
    case PlanKind::kLeafFirst: return leaf_first(t, plan.k, seed);
    case PlanKind::kSample: return sample(t, plan.k, seed);
  }
  return {};
}

PlanCoverage plan_coverage(const Rounds& rounds, const Topology& t) {
  std::vector<size_t> count(t.element_count(), 0);
  PlanCoverage c;
  for (const auto& r : rounds) {
    count_round(r, t, count);
    for (size_t a = 0; a < r.size(); ++a) c.pairs += r[a] > static_cast<int>(a);
  }
  c.min_uplink_crossings = SIZE_MAX;
  const std::vector<bool> can = crossable(t);
  for (size_t e = 0; e < count.size(); ++e) {
    if (!can[e]) continue;
    if (t.kind(e) == ElementKind::kHostCable) c.hosts_covered += count[e] > 0;
    if (t.kind(e) != ElementKind::kUplink) continue;
    ++c.uplinks;
    c.uplinks_covered += count[e] > 0;
    c.min_uplink_crossings = std::min(c.min_uplink_crossings, count[e]);
  }
  if (c.uplinks == 0) c.min_uplink_crossings = 0;
  return c;
}

double pair_test_seconds(const PairTest& test, double rate_gbps, double one_way_us) {
  const double bytes = static_cast<double>(test.bw_bytes) * test.window * test.bw_iters;
  const double bw_s = bytes * 8 / (rate_gbps * 1e9) + test.bw_iters * 2 * one_way_us * 1e-6;
  return bw_s + test.lat_iters * 2 * one_way_us * 1e-6;
}

}  // namespace ccb::fabric
