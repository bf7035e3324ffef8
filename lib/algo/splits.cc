#include "algo/splits.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>

#include "core/checked.h"
#include "core/error.h"
#include "core/files.h"

namespace ccb {
namespace {

constexpr uint64_t kMaxSplitFileBytes = 64ull << 20;  // a 4,096-rank matrix of 16-digit numbers
constexpr uint64_t kRoutingDraws = 1 << 16;           // tokens drawn per sender, then scaled

std::string one_line(const std::string& flag) { return "--splits " + flag; }

SplitSpec parse_routing(const std::string& flag) {
  SplitSpec s;
  s.text = flag;
  s.routing = true;
  std::stringstream in(flag.substr(4));
  for (std::string kv; std::getline(in, kv, ',');) {
    const auto eq = kv.find('=');
    const std::string key = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
    try {
      size_t used = 0;
      if (key == "skew") s.skew = std::stod(value, &used);
      else if (key == "seed") s.seed = std::stoull(value, &used);
      if ((key == "skew" || key == "seed") && used == value.size() && !value.empty() && value[0] != '-') continue;
    } catch (const std::exception&) {
    }
    throw_invalid(one_line(flag) + ": '" + kv + "' is not skew=S (0 or more) or seed=N: e.g. --splits moe:skew=1.2,seed=7");
  }
  if (!std::isfinite(s.skew) || s.skew > 100) throw_invalid(one_line(flag) + ": skew must be a number from 0 to 100");
  return s;
}

}  // namespace

uint64_t SplitMatrix::send_offset(int from, int to) const {
  uint64_t at_ = 0;
  for (int j = 0; j < to; ++j) at_ += at(from, j);
  return at_;
}

uint64_t SplitMatrix::recv_offset(int from, int to) const {
  uint64_t at_ = 0;
  for (int i = 0; i < from; ++i) at_ += at(i, to);
  return at_;
}

uint64_t SplitMatrix::recv_total(int to) const { return recv_offset(ranks, to); }

uint64_t SplitMatrix::largest_recv_total() const {
  uint64_t most = 0;
  for (int to = 0; to < ranks; ++to) most = std::max(most, recv_total(to));
  return most;
}

SplitSpec parse_split_spec(const std::string& flag) {
  if (flag.rfind("moe:", 0) == 0 || flag == "moe") return parse_routing(flag == "moe" ? "moe:" : flag);
  SplitSpec s;
  s.text = flag;
  std::stringstream lines(read_regular_file(flag, kMaxSplitFileBytes, "--splits"));
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::replace(line.begin(), line.end(), ',', ' ');
    std::stringstream cells(line);
    std::vector<int64_t> row;
    for (std::string cell; cells >> cell;) {
      size_t used = 0;
      int64_t v = 0;
      try {
        v = std::stoll(cell, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != cell.size() || used == 0)
        throw_invalid(flag + ":" + std::to_string(number) + ": '" + cell + "' is not a whole number of bytes");
      row.push_back(v);
    }
    if (!row.empty()) s.bytes.push_back(std::move(row));
  }
  return s;
}

uint64_t split_buffer_bytes(const SplitSpec& s, int ranks, DataType t, uint64_t size) {
  if (s.routing) return 0;
  const auto n = static_cast<size_t>(ranks);
  if (s.bytes.size() != n)
    throw_invalid(one_line(s.text) + " has " + std::to_string(s.bytes.size()) + " rows for " + std::to_string(ranks) +
                  " ranks: give one row per sending rank");
  uint64_t buffer = 0;
  for (size_t r = 0; r < n; ++r) {
    const std::string where = one_line(s.text) + " row " + std::to_string(r + 1);
    if (s.bytes[r].size() != n)
      throw_invalid(where + " has " + std::to_string(s.bytes[r].size()) + " columns for " + std::to_string(ranks) +
                    " ranks: give one column per receiving rank");
    uint64_t sum = 0;
    for (int64_t b : s.bytes[r]) {
      if (b < 0) throw_invalid(where + " has a negative entry (" + std::to_string(b) + "): bytes are 0 or more");
      if (static_cast<uint64_t>(b) % dtype_size(t) != 0)
        throw_invalid(where + ": " + std::to_string(b) + " B is not a whole number of " + std::string(dtype_name(t)) + " elements");
      sum = checked_add(sum, static_cast<uint64_t>(b), where + "'s sum");
    }
    buffer = std::max(buffer, sum);
  }
  if (size != 0 && size != buffer) {
    for (size_t r = 0; r < n; ++r) {
      uint64_t sum = 0;
      for (int64_t b : s.bytes[r]) sum += static_cast<uint64_t>(b);
      if (sum > size)
        throw_invalid(one_line(s.text) + " row " + std::to_string(r + 1) + " sums to " + std::to_string(sum) +
                      " B, more than the buffer of " + std::to_string(size) + " B: drop the sizes, or give --sizes " +
                      std::to_string(buffer));
    }
    throw_invalid(one_line(s.text) + "'s largest row sums to " + std::to_string(buffer) + " B, not the buffer of " +
                  std::to_string(size) + " B: drop the sizes, or give --sizes " + std::to_string(buffer));
  }
  return buffer;
}

SplitMatrix make_splits(const SplitSpec& s, int ranks, DataType t, uint64_t count) {
  SplitMatrix m;
  m.ranks = ranks;
  const auto n = static_cast<size_t>(ranks);
  if (!s.routing) {
    for (const auto& row : s.bytes)
      for (int64_t b : row) m.elements.push_back(static_cast<uint64_t>(b) / dtype_size(t));
    return m;
  }
  // Expert popularity: a permutation from the seed, the same on every rank.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 popularity(s.seed);
  std::shuffle(order.begin(), order.end(), popularity);
  std::vector<double> weight(n);
  for (size_t k = 0; k < n; ++k) weight[static_cast<size_t>(order[k])] = 1.0 / std::pow(static_cast<double>(k + 1), s.skew);
  for (size_t from = 0; from < n; ++from) {
    std::mt19937_64 rng(s.seed * 1000003 + from);
    std::discrete_distribution<size_t> expert(weight.begin(), weight.end());
    std::vector<uint64_t> drawn(n, 0);
    const uint64_t draws = std::min<uint64_t>(count, kRoutingDraws);
    for (uint64_t d = 0; d < draws; ++d) ++drawn[expert(rng)];
    // Scale the draws to `count` elements; the rounding's remainder goes to the first
    // experts with draws, so the row sums exactly to the buffer.
    uint64_t given = 0;
    std::vector<uint64_t> row(n, 0);
    for (size_t to = 0; to < n; ++to) given += row[to] = draws ? static_cast<uint64_t>(static_cast<long double>(count) * drawn[to] / draws) : 0;
    for (size_t to = 0; given < count; to = (to + 1) % n)
      if (drawn[to] > 0) ++row[to], ++given;
    m.elements.insert(m.elements.end(), row.begin(), row.end());
  }
  return m;
}

}  // namespace ccb
