// Recursive-doubling AllReduce, for small messages: log2(n) exchanges of the whole
// buffer with partner rank ^ 2^k, instead of the ring's 2(n-1) steps or the tree's
// 2 log2(n) pipelined hops. A world that is not a power of two p first folds: each rank
// r >= p hands its data to r - p and waits for the result (MPICH's fix-up). Every rank
// ends with bit-identical values: each exchange combines the same two operands, and
// every operator here is commutative.
#pragma once
#include <vector>

#include "algo/collective.h"
#include "algo/communicator.h"

namespace ccb {

class RecursiveDoublingAllreduce {
 public:
  explicit RecursiveDoublingAllreduce(Communicator& comm) : comm_(comm) {}
  void run(const CollectiveArgs& args);

  // The ranks `rank` exchanges with, in a world of `size`.
  static std::vector<int> peers(int rank, int size);

 private:
  Communicator& comm_;
};

}  // namespace ccb
