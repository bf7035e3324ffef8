// Two TCP transports in one process (ranks 0 and 1), connected to each other.
#pragma once
#include <memory>

#include "core/aligned_buffer.h"
#include "transport/request_wait.h"
#include "transport/tcp/tcp_transport.h"

namespace ccb::test {

struct TransportPair {
  std::unique_ptr<tcp::TcpTransport> t0, t1;
  ConnectionPtr c0, c1;  // c0: rank 0's connection to rank 1, c1: the reverse

  explicit TransportPair(TcpOptions opts = {}, uint64_t token0 = 7, uint64_t token1 = 7);
  ~TransportPair();
};

// A registered buffer owned together with its region.
struct RegisteredBuffer {
  AlignedBuffer memory;
  MemoryRegionPtr region;
  RegisteredBuffer(Transport& t, size_t bytes) : memory(bytes), region(t.register_memory(memory.data(), bytes)) {}
  char* data() const { return memory.data(); }
};

inline WaitPolicy short_wait(int ms = 20000) { return WaitPolicy{std::chrono::microseconds(20), std::chrono::milliseconds(ms)}; }

}  // namespace ccb::test
