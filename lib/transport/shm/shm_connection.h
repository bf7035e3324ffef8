// A connection to a rank on this host: our half of the pair's segment (an inbox on the
// peer's ring, an outbox on ours) and the Unix socket that wakes a sleeping peer and
// says when it is gone.
#pragma once
#include <sys/types.h>

#include <exception>

#include "core/fd.h"
#include "transport/shm/shm_inbox.h"
#include "transport/shm/shm_outbox.h"
#include "transport/shm/shm_segment.h"
#include "transport/transport.h"

namespace ccb::shm {

class ShmTransport;

// What the handshake established about one peer.
struct ShmPeer {
  int rank = -1;
  pid_t pid = 0;
  Fd socket;
  MappedSegment segment;
  int side = 0;                   // ours: 0 made the segment, 1 adopted it
  bool we_can_pull = false;       // we may read the peer's memory
  bool peer_can_pull = false;     // the peer may read ours
};

class ShmConnection final : public Connection {
 public:
  ShmConnection(ShmTransport& transport, ShmPeer peer);
  ~ShmConnection() override;

  int peer() const override { return peer_.rank; }
  RequestPtr isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override;
  RequestPtr irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override;

  // The transport's engine: moves what can move, records failures instead of throwing.
  void service();
  bool has_work() const;
  void announce_sleep(bool asleep);
  void on_socket_event();
  int socket() const { return peer_.socket.get(); }
  bool single_copy_both_ways() const { return peer_.we_can_pull && peer_.peer_can_pull; }

 private:
  void notify_peer();
  void pull(char* into, uint64_t address, size_t bytes) const;
  void fail(std::exception_ptr e);
  ErrorContext context(const char* phase) const;

  ShmTransport& transport_;
  ShmPeer peer_;
  Segment& segment_;
  ShmInbox inbox_;
  ShmOutbox outbox_;
  bool closed_ = false;
  std::exception_ptr failure_;
};

}  // namespace ccb::shm
