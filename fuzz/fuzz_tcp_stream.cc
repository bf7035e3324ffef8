// libFuzzer target: what a TCP peer sends after a valid handshake (chunk headers and
// payload) fed to a real TcpTransport with receives posted on a few tags. Anything but
// completed receives or a ccb::Error is a bug; so is a hang (libFuzzer's -timeout).
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

#include "core/aligned_buffer.h"
#include "core/error.h"
#include "net/socket_util.h"
#include "transport/tcp/tcp_transport.h"
#include "transport/tcp/tcp_wire.h"

namespace {

constexpr uint64_t kToken = 7;

ccb::Fd connect_as_rank1(ccb::Transport& t0) {
  std::istringstream addr(t0.listen_address());
  std::string ip;
  int port = 0;
  addr >> ip >> port;
  ccb::Fd fd = ccb::connect_to(ccb::resolve_host(ip, port), ccb::Clock::now() + std::chrono::seconds(2), true);
  ccb::tcp::Hello h{ccb::tcp::kHelloMagic, ccb::tcp::kWireVersion, 0, 1, 0, 1, 0, 0, kToken};
  ccb::write_exact(fd.get(), &h, sizeof h, ccb::Clock::now() + std::chrono::seconds(2));
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 256 << 10) return 0;  // stays inside the loopback socket buffers
  try {
    ccb::tcp::TcpTransport t0(0, kToken, ccb::TcpOptions{});
    ccb::Fd peer = connect_as_rank1(t0);
    ccb::ConnectionPtr c = t0.accept(1, ccb::Clock::now() + std::chrono::seconds(2));
    ccb::tcp::HelloAck ack{};
    ccb::read_exact(peer.get(), &ack, sizeof ack, ccb::Clock::now() + std::chrono::seconds(2));
    ccb::write_exact(peer.get(), data, size, ccb::Clock::now() + std::chrono::seconds(2));
    shutdown(peer.get(), SHUT_WR);  // then the peer goes quiet: EOF ends the stream
    ccb::AlignedBuffer buf(3 << 20);
    ccb::MemoryRegionPtr mr = t0.register_memory(buf.data(), buf.size());
    std::vector<ccb::RequestPtr> recvs;
    for (uint32_t tag = 0; tag < 3; ++tag) recvs.push_back(c->irecv(*mr, tag << 20, 1 << 20, tag));
    const auto deadline = ccb::Clock::now() + std::chrono::milliseconds(200);
    for (auto& r : recvs)
      while (!r->test() && ccb::Clock::now() < deadline) t0.wait_for_progress(std::chrono::milliseconds(1));
  } catch (const ccb::Error&) {
  }
  return 0;
}
