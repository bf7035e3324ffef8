#include "algo/recursive_doubling.h"

#include <cstring>

#include "core/reduce.h"

namespace ccb {
namespace {

int largest_power_of_two(int n) {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace

std::vector<int> RecursiveDoublingAllreduce::peers(int rank, int size) {
  const int p = largest_power_of_two(size), extra = size - p;
  if (rank >= p) return {rank - p};
  std::vector<int> out;
  if (rank < extra) out.push_back(rank + p);
  for (int mask = 1; mask < p; mask <<= 1) out.push_back(rank ^ mask);
  return out;
}

void RecursiveDoublingAllreduce::run(const CollectiveArgs& a) {
  const int n = comm_.size(), r = comm_.rank();
  if (finish_trivial_allreduce(a, n)) return;
  const size_t bytes = a.count * dtype_size(a.dtype);
  if (!(a.send == a.recv)) std::memcpy(a.recv.data(), a.send.data(), bytes);
  const MemoryRegion& scratch = comm_.scratch(bytes);
  const MemoryRegion& result = *a.recv.region;
  const size_t at = a.recv.offset;
  const int p = largest_power_of_two(n), extra = n - p;
  auto exchange = [&](int peer, uint32_t tag) {  // theirs into scratch, then combined into ours
    RequestPtr in = comm_.peer(peer).irecv(scratch, 0, bytes, tag);
    RequestPtr out = comm_.peer(peer).isend(result, at, bytes, tag);
    comm_.waiter().wait(*in);
    comm_.waiter().wait(*out);
    reduce(a.recv.data(), a.recv.data(), scratch.base(), a.count, a.dtype, a.op);
  };
  if (r >= p) {  // folded: hand over the data, take back the result
    Connection& partner = comm_.peer(r - p);
    RequestPtr out = partner.isend(result, at, bytes, kTagDoublingFold);
    RequestPtr in = partner.irecv(result, at, bytes, kTagDoublingUnfold);
    comm_.waiter().wait(*out);
    comm_.waiter().wait(*in);
    return;
  }
  if (r < extra) {
    RequestPtr in = comm_.peer(r + p).irecv(scratch, 0, bytes, kTagDoublingFold);
    comm_.waiter().wait(*in);
    reduce(a.recv.data(), a.recv.data(), scratch.base(), a.count, a.dtype, a.op);
  }
  uint32_t step = 0;
  for (int mask = 1; mask < p; mask <<= 1) exchange(r ^ mask, kTagDoubling + step++);
  if (a.op == ReduceOp::kAvg) divide(a.recv.data(), a.count, a.dtype, n);
  if (r < extra) {
    RequestPtr out = comm_.peer(r + p).isend(result, at, bytes, kTagDoublingUnfold);
    comm_.waiter().wait(*out);
  }
}

}  // namespace ccb
