#include "runner/pass_order.h"

#include <fstream>
#include <numeric>

#include "core/error.h"

namespace ccb {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<size_t> PassOrder::indices(size_t n, int pass) const {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (!seed_) return order;
  uint64_t state = *seed_ ^ (0x632be59bd9b4e019ull * static_cast<uint64_t>(pass + 1));
  for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[splitmix64(state) % i]);
  return order;
}

uint64_t random_seed() {
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  uint64_t seed = 0;
  if (!urandom.read(reinterpret_cast<char*>(&seed), sizeof seed)) throw_errno("reading /dev/urandom");
  return seed;
}

}  // namespace ccb
