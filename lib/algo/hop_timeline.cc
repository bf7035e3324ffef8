#include "algo/hop_timeline.h"

#include <chrono>
#include <cstring>
#include <limits>

#include "algo/collective.h"
#include "algo/communicator.h"
#include "core/aligned_buffer.h"

namespace ccb {

double HopTimeline::now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Each round: a ping to the left; the ping from the right answered with this rank's
// clock; the left's answer read. Every rank sends before it waits, so none waits on a
// rank that waits on it.
double left_clock_offset_us(Communicator& comm, int rounds) {
  const int n = comm.size(), r = comm.rank();
  if (n < 2) return 0;
  Connection& left = comm.peer((r + n - 1) % n);
  Connection& right = comm.peer((r + 1) % n);
  constexpr size_t kPingOut = 0, kPingIn = 8, kPongOut = 16, kPongIn = 24;
  AlignedBuffer buf(4096);
  MemoryRegionPtr mr = comm.transport().register_memory(buf.data(), buf.size());
  double best_rtt = std::numeric_limits<double>::infinity(), offset = 0;
  for (int i = 0; i < rounds; ++i) {
    RequestPtr ping_in = right.irecv(*mr, kPingIn, 8, kTagHopPing);
    RequestPtr pong_in = left.irecv(*mr, kPongIn, 8, kTagHopPong);
    const double t0 = HopTimeline::now_us();
    RequestPtr ping_out = left.isend(*mr, kPingOut, 8, kTagHopPing);
    comm.waiter().wait(*ping_in);
    const double mine = HopTimeline::now_us();
    std::memcpy(buf.data() + kPongOut, &mine, sizeof mine);
    RequestPtr pong_out = right.isend(*mr, kPongOut, 8, kTagHopPong);
    comm.waiter().wait(*pong_in);
    const double t1 = HopTimeline::now_us();
    double theirs = 0;
    std::memcpy(&theirs, buf.data() + kPongIn, sizeof theirs);
    comm.waiter().wait(*ping_out);
    comm.waiter().wait(*pong_out);
    if (t1 - t0 < best_rtt) best_rtt = t1 - t0, offset = theirs - (t0 + t1) / 2;
  }
  return offset;
}

std::vector<double> hop_transfer_us(const std::vector<double>& left_sends, const std::vector<double>& arrivals,
                                    double left_offset_us) {
  std::vector<double> out;
  for (size_t i = 0; i < std::min(left_sends.size(), arrivals.size()); ++i)
    out.push_back(arrivals[i] - (left_sends[i] - left_offset_us));
  return out;
}

}  // namespace ccb
