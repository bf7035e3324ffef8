// The one interface every backend implements (TCP, IPoIB, verbs). Modelled on NCCL's
// net plugin API: listen/connect/accept, memory registration, tag-matched async
// isend/irecv returning requests, test/wait, and abort.
//
// Contract:
//  - A Transport belongs to one rank and is driven by one thread; only abort() may be
//    called from another thread (or a signal-safe watchdog).
//  - Memory is registered once and reused. isend/irecv name a registered region and a
//    byte range inside it, so RDMA backends can hand out keys and write remotely.
//  - Matching: for one peer and one tag, messages complete in posting order. An irecv
//    may be posted before or after the matching isend. A receive may be larger than the
//    message; Request::bytes() tells how much arrived. A larger message is an error.
//  - Flow control (MPI's rule): a backend may hold a large message that arrives before
//    its receive, and what the peer sent after it, until that receive is posted. So a
//    rank must not wait for a later message from a peer before posting the receive of
//    an earlier one; posting receives in the order the peer sends is always safe.
//  - Request::test() makes progress and never blocks. A failed request throws Error
//    naming the peer and the reason; a lost peer fails every request on it.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/units.h"

namespace ccb {

class MemoryRegion {
 public:
  MemoryRegion(void* base, size_t bytes) : base_(static_cast<char*>(base)), bytes_(bytes), serial_(next_serial()) {}
  virtual ~MemoryRegion() = default;
  MemoryRegion(const MemoryRegion&) = delete;
  MemoryRegion& operator=(const MemoryRegion&) = delete;

  char* base() const { return base_; }
  size_t size() const { return bytes_; }
  bool contains(size_t offset, size_t bytes) const { return offset <= bytes_ && bytes <= bytes_ - offset; }
  // Unique in the process for its lifetime, never reused: what caches key a region by
  // (a new region may land at a freed one's address, but never gets its serial).
  uint64_t serial() const { return serial_; }

 private:
  static uint64_t next_serial() {
    static std::atomic<uint64_t> last{0};
    return ++last;
  }
  char* base_;
  size_t bytes_;
  uint64_t serial_;
};
using MemoryRegionPtr = std::unique_ptr<MemoryRegion>;

class Request {
 public:
  virtual ~Request() = default;
  virtual bool test() = 0;                  // true once complete; throws Error on failure
  virtual size_t bytes() const = 0;         // bytes moved (valid once complete)
  virtual std::string describe() const = 0; // "recv from rank 3, tag 7, 1048576 B"
};
using RequestPtr = std::unique_ptr<Request>;

class Connection {
 public:
  virtual ~Connection() = default;
  virtual int peer() const = 0;
  virtual RequestPtr isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) = 0;
  virtual RequestPtr irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) = 0;
};
using ConnectionPtr = std::unique_ptr<Connection>;

// The link a transport sends on, for utilization figures and result records.
struct LinkInfo {
  std::string nic;               // "lo", "eth0", "mlx5_0:1"; "" when not known
  std::string driver;            // "veth", "mlx5_core", "rxe"; "" when not known
  std::string firmware;          // "" when the NIC reports none
  double line_rate_gbps = 0;     // 0: the link reports no rate (loopback, veth)
  std::string tx_counter;        // file counting what this NIC sent; "" when none
  uint64_t tx_counter_unit = 1;  // bytes per count: 4 for InfiniBand's port_xmit_data
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::string_view name() const = 0;
  virtual int rank() const = 0;
  // What a peer needs to reach this rank (NCCL's listen handle); opaque bytes.
  virtual std::string listen_address() = 0;
  // The higher rank of a pair connects, the lower accepts; accept() serves every peer
  // that arrives meanwhile, so no order of calls across ranks can deadlock.
  virtual ConnectionPtr connect(int peer, const std::string& address, Deadline deadline) = 0;
  virtual ConnectionPtr accept(int peer, Deadline deadline) = 0;
  virtual MemoryRegionPtr register_memory(void* base, size_t bytes) = 0;
  // Blocks until some request may have progressed, or the timeout passes.
  virtual void wait_for_progress(std::chrono::microseconds timeout) = 0;
  // Fails every pending and future request with `why` and wakes every waiter.
  virtual void abort(const std::string& why) = 0;
  // One line of settings for result records ("tcp streams=2 addr=127.0.0.1 ...").
  virtual std::string describe() const = 0;
  virtual LinkInfo link() const = 0;
};
using TransportPtr = std::unique_ptr<Transport>;

}  // namespace ccb
