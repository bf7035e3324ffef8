#include "judge/pair_scan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "core/error.h"

namespace ccb::judge {

std::vector<std::vector<int>> round_robin_partners(int hosts) {
  if (hosts < 2) return {};
  const int n = hosts + hosts % 2;  // with the dummy host
  std::vector<std::vector<int>> rounds;
  for (int round = 0; round < n - 1; ++round) {
    std::vector<int> partner(static_cast<size_t>(hosts));
    for (int r = 0; r < hosts; ++r) partner[static_cast<size_t>(r)] = r;
    // Host n-1 stays put; the others turn one place per round around the circle.
    auto at = [&](int slot) { return slot == n - 1 ? n - 1 : (slot + round) % (n - 1); };
    for (int slot = 0; slot < n / 2; ++slot) {
      const int a = at(slot), b = at(n - 1 - slot);
      if (a < hosts && b < hosts) {
        partner[static_cast<size_t>(a)] = b;
        partner[static_cast<size_t>(b)] = a;
      }
    }
    rounds.push_back(partner);
  }
  return rounds;
}

static void check_shape(const PairMatrix& m, size_t n, const char* what) {
  if (m.size() != n) throw_invalid(std::string(what) + " matrix has " + std::to_string(m.size()) + " rows for " + std::to_string(n) + " hosts");
  for (const auto& row : m)
    if (row.size() != n) throw_invalid(std::string(what) + " matrix is not square");
}

static double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

std::vector<PairFigure> measured_pairs(const PairMatrix& bw, const PairMatrix& lat) {
  const size_t n = bw.size();
  if (n < 2) throw_invalid("a scan needs at least 2 hosts, one rank on each");
  check_shape(bw, n, "the bandwidth");
  check_shape(lat, n, "the latency");
  std::vector<PairFigure> out;
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b)
      if (std::isfinite(bw[a][b]) && std::isfinite(lat[a][b])) out.push_back({static_cast<int>(a), static_cast<int>(b), bw[a][b], lat[a][b]});
  return out;
}

std::pair<double, double> median_bw_and_min_lat(const std::vector<PairFigure>& pairs) {
  if (pairs.empty()) throw_invalid("the scan measured no pair");
  std::vector<double> bws;
  double min_lat = pairs.front().lat_us;
  for (const PairFigure& p : pairs) {
    bws.push_back(p.bw_gbps);
    min_lat = std::min(min_lat, p.lat_us);
  }
  return {median_of(std::move(bws)), min_lat};
}

std::vector<SlowPair> slow_among(const std::vector<PairFigure>& pairs, const ScanLimits& limits) {
  const auto [median_bw, min_lat] = median_bw_and_min_lat(pairs);
  std::vector<SlowPair> out;
  for (const PairFigure& f : pairs) {
    SlowPair p{f.a, f.b, f.bw_gbps < limits.bw_frac * median_bw, f.lat_us > limits.lat_factor * min_lat};
    if (p.slow_bw || p.slow_lat) out.push_back(p);
  }
  return out;
}

std::vector<SlowPair> slow_pairs(const PairMatrix& bw, const PairMatrix& lat, const ScanLimits& limits) {
  return slow_among(measured_pairs(bw, lat), limits);
}

ScanVerdict judge_pairs(const PairMatrix& bw, const PairMatrix& lat, const ScanLimits& limits) {
  ScanVerdict v;
  const std::vector<PairFigure> pairs = measured_pairs(bw, lat);
  v.slow = slow_among(pairs, limits);
  std::tie(v.median_bw, v.min_lat) = median_bw_and_min_lat(pairs);
  const size_t n = bw.size();
  std::vector<int> slow_peers(n, 0), peers(n, 0);
  for (const PairFigure& p : pairs) ++peers[static_cast<size_t>(p.a)], ++peers[static_cast<size_t>(p.b)];
  for (const SlowPair& p : v.slow) ++slow_peers[static_cast<size_t>(p.a)], ++slow_peers[static_cast<size_t>(p.b)];
  for (size_t h = 0; h < n; ++h)
    if (peers[h] >= 2 && slow_peers[h] == peers[h]) v.bad_hosts.push_back(static_cast<int>(h));
  auto is_bad = [&v](int h) { return std::find(v.bad_hosts.begin(), v.bad_hosts.end(), h) != v.bad_hosts.end(); };
  for (const SlowPair& p : v.slow)
    if (!is_bad(p.a) && !is_bad(p.b)) v.bad_pairs.push_back(p);
  return v;
}

double pair_margin(double bw, double lat, const ScanVerdict& v, const ScanLimits& limits) {
  const double bw_margin = v.median_bw > 0 ? bw / (limits.bw_frac * v.median_bw) : 1;
  const double lat_margin = lat > 0 ? limits.lat_factor * v.min_lat / lat : 1;
  return std::min(bw_margin, lat_margin);
}

static std::string figures(const SlowPair& p, const PairMatrix& bw, const PairMatrix& lat) {
  char b[160];
  // The failing measure first, each figure under its own name.
  const double gbit = bw[static_cast<size_t>(p.a)][static_cast<size_t>(p.b)] * 8, us = lat[static_cast<size_t>(p.a)][static_cast<size_t>(p.b)];
  if (p.slow_bw) std::snprintf(b, sizeof b, "%.3f Gbit/s each way; latency %.1f us one way", gbit, us);
  else std::snprintf(b, sizeof b, "%.1f us one way; bandwidth %.3f Gbit/s each way", us, gbit);
  return b;
}

static std::string what_is_slow(bool bw, bool lat) {
  return bw && lat ? "bandwidth and latency" : bw ? "bandwidth" : "latency";
}

std::vector<std::string> verdict_lines(const ScanVerdict& v, const PairMatrix& bw, const PairMatrix& lat,
                                       const std::vector<std::string>& labels, const ScanLimits& limits) {
  char limit_text[200];
  std::snprintf(limit_text, sizeof limit_text, "bandwidth below %.2f x the median %.3f Gbit/s or latency above %.2f x the minimum %.1f us",
                limits.bw_frac, v.median_bw * 8, limits.lat_factor, v.min_lat);
  const size_t pairs = measured_pairs(bw, lat).size();
  if (v.pass()) return {"scan: PASS: " + std::to_string(pairs) + " pairs, none with " + limit_text};
  std::vector<std::string> out;
  for (int h : v.bad_hosts) {
    bool slow_bw = false, slow_lat = false;
    for (const SlowPair& p : v.slow)
      if (p.a == h || p.b == h) slow_bw |= p.slow_bw, slow_lat |= p.slow_lat;
    out.push_back("scan: FAIL: host " + labels[static_cast<size_t>(h)] + " is slow with every peer (" +
                  what_is_slow(slow_bw, slow_lat) + "): its NIC, PCIe link or cable; rule: " + limit_text);
  }
  for (const SlowPair& p : v.bad_pairs)
    out.push_back("scan: FAIL: the cable or path between " + labels[static_cast<size_t>(p.a)] + " and " +
                  labels[static_cast<size_t>(p.b)] + " (slow on " + what_is_slow(p.slow_bw, p.slow_lat) + ": " +
                  figures(p, bw, lat) + "); rule: " + limit_text);
  return out;
}

}  // namespace ccb::judge
