// The order of the sizes in each pass of a run (--repeat): as given, or (--shuffle) a
// permutation drawn per pass from one seed that every rank uses. Shuffling spreads
// drift over a run (a link warming up, a neighbour's job starting) over all sizes,
// instead of letting it bias the last ones. The permutation is ccbench's own
// (Fisher-Yates over splitmix64), so a recorded seed gives the same order on any build.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ccb {

class PassOrder {
 public:
  PassOrder() = default;                      // in order
  explicit PassOrder(uint64_t seed) : seed_(seed) {}  // shuffled
  std::vector<size_t> indices(size_t n, int pass) const;
  std::optional<uint64_t> seed() const { return seed_; }

 private:
  std::optional<uint64_t> seed_;
};

uint64_t random_seed();  // from /dev/urandom

}  // namespace ccb
