#include "transport_pair.h"

#include <future>

#include "transport/tcp/tcp_transport.h"

namespace ccb::test {

TransportPair::TransportPair(TransportPtr rank0, TransportPtr rank1, std::chrono::seconds limit)
    : t0(std::move(rank0)), t1(std::move(rank1)) {
  auto deadline = Clock::now() + limit;
  std::string addr0 = t0->listen_address();
  auto accepted = std::async(std::launch::async, [&] { return t0->accept(1, deadline); });
  try {
    c1 = t1->connect(0, addr0, deadline);
  } catch (...) {
    try {
      accepted.get();
    } catch (...) {
    }
    throw;
  }
  c0 = accepted.get();
}

TransportPair::TransportPair(TcpOptions opts, uint64_t token0, uint64_t token1)
    : TransportPair(std::make_unique<tcp::TcpTransport>(0, token0, opts), std::make_unique<tcp::TcpTransport>(1, token1, opts)) {}

TransportPair::~TransportPair() {
  c0.reset();
  c1.reset();
}

void fill(char* p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>((i * 131 + seed * 7) & 0xff);
}

bool same(const char* p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != static_cast<char>((i * 131 + seed * 7) & 0xff)) return false;
  return true;
}

}  // namespace ccb::test
