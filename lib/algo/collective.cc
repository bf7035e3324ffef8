#include "algo/collective.h"

#include <cstring>

namespace ccb {

bool finish_trivial_allreduce(const CollectiveArgs& a, int ranks) {
  if (a.count == 0) return true;
  if (ranks > 1) return false;
  if (!(a.send == a.recv)) std::memcpy(a.recv.data(), a.send.data(), a.count * dtype_size(a.dtype));
  return true;
}

}  // namespace ccb
