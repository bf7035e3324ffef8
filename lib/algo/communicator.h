// A rank's view of the job for the collectives: its transport, lazily opened
// connections to the peers it needs, scratch memory, and how long to wait.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algo/hop_timeline.h"
#include "core/error.h"
#include "core/memory_space.h"
#include "transport/registered_buffer.h"
#include "transport/request_wait.h"
#include "transport/transport.h"

namespace ccb {

class HostHierarchy;

class Communicator {
 public:
  // `addresses[r]` is what rank r's transport published (Transport::listen_address).
  // Every buffer the collectives use comes from `memory`, which host code must reach.
  Communicator(Transport& transport, int rank, int size, std::vector<std::string> addresses, WaitPolicy policy,
               const MemorySpace& memory = host_memory());
  ~Communicator();

  int rank() const { return rank_; }
  int size() const { return size_; }
  Transport& transport() { return transport_; }
  const MemorySpace& memory() const { return memory_; }
  RequestWaiter& waiter() { return waiter_; }

  // Opens the connection on first use. Both ranks of a pair must ask for it.
  Connection& peer(int r);
  // Registered scratch of at least `bytes`, reused across calls (grows, never shrinks).
  const MemoryRegion& scratch(size_t bytes);
  ErrorContext context(const char* phase, int peer = -1) const;
  // --hops: ring passes stamp their messages here while it is set (null: not timed).
  HopTimeline* hop_timeline() const { return hops_; }
  void set_hop_timeline(HopTimeline* t) { hops_ = t; }
  // --algo hier: this rank's two levels (null: the job opened none).
  HostHierarchy* hierarchy() const { return hierarchy_; }
  void set_hierarchy(HostHierarchy* h) { hierarchy_ = h; }

 private:
  Transport& transport_;
  int rank_;
  int size_;
  std::vector<std::string> addresses_;
  const MemorySpace& memory_;
  RequestWaiter waiter_;
  std::string device_;  // the transport's NIC, for errors
  std::map<int, ConnectionPtr> connections_;
  RegisteredBuffer scratch_;
  HopTimeline* hops_ = nullptr;
  HostHierarchy* hierarchy_ = nullptr;
};

// Ring passes stamp into `timeline` while this lives (null: nothing is stamped), and
// never after, even when a call throws.
class HopRecording {
 public:
  HopRecording(Communicator& comm, HopTimeline* timeline) : comm_(comm) { comm_.set_hop_timeline(timeline); }
  ~HopRecording() { comm_.set_hop_timeline(nullptr); }
  HopRecording(const HopRecording&) = delete;
  HopRecording& operator=(const HopRecording&) = delete;

 private:
  Communicator& comm_;
};

}  // namespace ccb
