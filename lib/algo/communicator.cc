#include "algo/communicator.h"

#include "transport/debug_trace.h"

namespace ccb {

Communicator::Communicator(Transport& transport, int rank, int size, std::vector<std::string> addresses,
                           WaitPolicy policy, const MemorySpace& memory)
    : transport_(transport), rank_(rank), size_(size), addresses_(std::move(addresses)), memory_(memory),
      waiter_(transport, policy), device_(transport.link().nic) {
  require_host_accessible(memory_);
  if (size < 1 || rank < 0 || rank >= size) throw_invalid("bad rank " + std::to_string(rank) + " of " + std::to_string(size));
  if (static_cast<int>(addresses_.size()) != size) throw_invalid("need one transport address per rank");
}

Communicator::~Communicator() = default;

Connection& Communicator::peer(int r) {
  if (r < 0 || r >= size_ || r == rank_) throw_invalid("no connection from rank " + std::to_string(rank_) + " to " + std::to_string(r));
  auto it = connections_.find(r);
  if (it != connections_.end()) return *it->second;
  auto deadline = Clock::now() + waiter_.policy().timeout;
  ConnectionPtr c = r > rank_ ? transport_.accept(r, deadline) : transport_.connect(r, addresses_[r], deadline);
  if (debug_trace_on()) c = traced_connection(std::move(c), rank_, std::string(transport_.name()) + " on " + device_);
  return *connections_.emplace(r, std::move(c)).first->second;
}

const MemoryRegion& Communicator::scratch(size_t bytes) {
  if (!scratch_ || scratch_.size() < bytes) {
    scratch_ = RegisteredBuffer();  // the old scratch goes before the new one is mapped
    scratch_ = RegisteredBuffer(memory_, transport_, bytes);
  }
  return scratch_.region();
}

ErrorContext Communicator::context(const char* phase, int peer) const {
  return ErrorContext{rank_, peer, std::string(transport_.name()), phase, 0, device_};
}

}  // namespace ccb
