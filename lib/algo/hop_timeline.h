// The ring's hops, timed from inside the algorithm (ccbench run --hops).
//
// Why not each rank's wait on its left neighbour: in a pipelined ring every rank waits
// about as long, whichever link is slow, because the slow link paces every step after
// it. What tells the links apart is each message's transfer time: from the moment its
// sender posted it to the moment it arrived. run_ring_pass stamps both ends (sends in
// the order posted, arrivals in the order received, which match message for message
// between neighbours), and the ranks' clocks are put on one time base by ping-pongs
// with the left neighbour (Cristian's method: the fastest round trip bounds the error
// by half of it).
#pragma once
#include <vector>

namespace ccb {

class Communicator;

class HopTimeline {
 public:
  void sent() { sends_.push_back(now_us()); }
  void received() { arrivals_.push_back(now_us()); }
  const std::vector<double>& sends() const { return sends_; }
  const std::vector<double>& arrivals() const { return arrivals_; }
  static double now_us();  // the steady clock

 private:
  std::vector<double> sends_, arrivals_;
};

// How far the left neighbour's steady clock reads ahead of this rank's, in
// microseconds. Every rank of the ring calls it at once.
double left_clock_offset_us(Communicator& comm, int rounds);

// The transfer time of each message into this rank: its arrival less its sender's
// post, moved onto this rank's clock. Messages beyond the shorter list are dropped.
std::vector<double> hop_transfer_us(const std::vector<double>& left_sends, const std::vector<double>& arrivals,
                                    double left_offset_us);

}  // namespace ccb
