#include "runner/communicator_bootstrap.h"

#include "core/error.h"

namespace ccb {

std::vector<std::string> CommunicatorBootstrap::allgather(const std::string& mine) {
  const int n = comm_.size();
  const int me = comm_.rank();
  if (mine.size() > kMaxGroupBlobBytes) throw_invalid("a group's all-gather of " + std::to_string(mine.size()) + " bytes is over its limit");
  std::vector<std::string> out(static_cast<size_t>(n));
  out[static_cast<size_t>(me)] = mine;
  if (n == 1) return out;

  std::vector<uint64_t> lengths(static_cast<size_t>(n), 0);
  lengths[static_cast<size_t>(me)] = mine.size();
  std::string sent = mine;  // registered memory must be writable; the caller's is const
  MemoryRegionPtr length_mr = comm_.transport().register_memory(lengths.data(), lengths.size() * sizeof(uint64_t));
  std::vector<MemoryRegionPtr> regions;
  std::vector<RequestPtr> requests;  // destroyed first: no request outlives its memory
  for (int p = 0; p < n; ++p) {
    if (p == me) continue;
    requests.push_back(comm_.peer(p).irecv(*length_mr, static_cast<size_t>(p) * 8, 8, kTagGroupBootstrap));
    requests.push_back(comm_.peer(p).isend(*length_mr, static_cast<size_t>(me) * 8, 8, kTagGroupBootstrap));
  }
  comm_.waiter().wait_all(requests);

  for (int p = 0; p < n; ++p) {
    const uint64_t length = lengths[static_cast<size_t>(p)];
    if (p == me || length == 0) continue;
    if (length > kMaxGroupBlobBytes)
      throw Error(ErrorKind::kProtocol, "a group member announced " + std::to_string(length) + " bytes, over the limit of " +
                  std::to_string(kMaxGroupBlobBytes), comm_.context("group all-gather", p));
    out[static_cast<size_t>(p)].resize(length);
    regions.push_back(comm_.transport().register_memory(out[static_cast<size_t>(p)].data(), length));
    requests.push_back(comm_.peer(p).irecv(*regions.back(), 0, length, kTagGroupBootstrap));
  }
  if (!sent.empty()) {
    regions.push_back(comm_.transport().register_memory(sent.data(), sent.size()));
    for (int p = 0; p < n; ++p)
      if (p != me) requests.push_back(comm_.peer(p).isend(*regions.back(), 0, sent.size(), kTagGroupBootstrap));
  }
  comm_.waiter().wait_all(requests);
  return out;
}

}  // namespace ccb
