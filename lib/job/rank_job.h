// One rank of a measuring job, as every measuring command and the benchmark driver run
// it: join the job through the bootstrap (with the fingerprint the ranks must agree
// on), open the transport, watch for the job failing elsewhere, connect the
// communicator, run the body. When anything fails, the error is reported as one line
// and every other rank is told at once, so none waits out its timeout.
#pragma once
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "algo/communicator.h"
#include "bootstrap/bootstrap.h"
#include "bootstrap/host_layout.h"
#include "bootstrap/launch_env.h"
#include "bootstrap/store_hello.h"
#include "runner/transport_factory.h"

namespace ccb {

struct JobSettings {
  TransportChoice transport;
  std::chrono::milliseconds timeout{60000};  // a silent peer is declared gone after this
  std::chrono::microseconds spin{50};
  bootstrap::JobFingerprint fingerprint;
  bool yield = false;  // set by run_as_rank: its machine holds more ranks than the CPUs it may run on
  WaitPolicy wait_policy() const { return WaitPolicy{spin, timeout, yield}; }
};

// The transports to abort when the job fails elsewhere: the rank's own, and any that a
// command opens beside it (--parallel's groups). The job's watch calls abort_all from
// its own thread.
class AbortList {
 public:
  // Keeps `t` on the list until destroyed; destroy it before the transport. A transport
  // added after the job failed is aborted at once.
  class Entry {
   public:
    Entry(AbortList& list, Transport& t);
    ~Entry();
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;

   private:
    AbortList& list_;
    Transport& transport_;
  };
  void abort_all(const std::string& why);

 private:
  std::mutex mu_;
  std::vector<Transport*> transports_;
  std::string why_;  // set once the job failed
};

struct RankContext {
  Bootstrap& boot;
  Transport& transport;
  Communicator& comm;
  const LaunchInfo& info;
  const JobSettings& settings;
  AbortList& aborts;
  const HostLayout& layout;  // every rank's host, local rank and NIC
};

// Returns the body's exit status, or the error's (report_error) after ending the job.
int run_as_rank(const LaunchInfo& info, const JobSettings& settings, const std::function<int(RankContext&)>& body);

}  // namespace ccb
