#include "transport_pair.h"

#include <future>

namespace ccb::test {

TransportPair::TransportPair(TcpOptions opts, uint64_t token0, uint64_t token1)
    : t0(std::make_unique<tcp::TcpTransport>(0, token0, opts)),
      t1(std::make_unique<tcp::TcpTransport>(1, token1, opts)) {
  auto deadline = Clock::now() + std::chrono::seconds(4);
  std::string addr0 = t0->listen_address();
  auto accepted = std::async(std::launch::async, [&] { return t0->accept(1, deadline); });
  c1 = t1->connect(0, addr0, deadline);
  c0 = accepted.get();
}

TransportPair::~TransportPair() {
  c0.reset();
  c1.reset();
}

}  // namespace ccb::test
