#include "transport/shm/shm_connection.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>
#include <vector>

#include "core/error.h"
#include "transport/shm/shm_transport.h"

namespace ccb::shm {
namespace {

// Early messages an inbox copies out of the ring before it leaves the rest waiting there.
constexpr size_t kMaxHeldBytes = 64 << 20;

// Requests, like their ops (shm_op.h), come from a small cache of this thread's, so an
// 8 B exchange does not go to the allocator for its two handles.
constexpr size_t kSpareRequests = 64;

class ShmRequest final : public Request {
 public:
  ShmRequest(ShmTransport& t, ShmOpPtr op, int peer) : transport_(t), op_(std::move(op)), peer_(peer) {}
  ~ShmRequest() override { recycle_op(std::move(op_)); }

  static void* operator new(size_t bytes) {
    if (bytes != sizeof(ShmRequest) || spare().empty()) return ::operator new(bytes);
    void* p = spare().back();
    spare().pop_back();
    return p;
  }
  static void operator delete(void* p, size_t bytes) {
    if (bytes == sizeof(ShmRequest) && spare().size() < kSpareRequests) return spare().push_back(p);
    ::operator delete(p);
  }

  bool test() override {
    if (op_->complete) return true;
    transport_.progress();
    if (op_->complete) return true;
    if (op_->error) std::rethrow_exception(op_->error);
    transport_.rethrow_failure();
    return false;
  }
  size_t bytes() const override { return op_->kind == ShmOp::Kind::kRecv ? op_->total : op_->capacity; }
  std::string describe() const override {
    bool recv = op_->kind == ShmOp::Kind::kRecv;
    return std::string(recv ? "recv from" : "send to") + " rank " + std::to_string(peer_) + " (tag " + std::to_string(op_->tag) +
           ", " + std::to_string(op_->capacity) + " B)";
  }

 private:
  // Blocks of sizeof(ShmRequest), freed when the thread ends.
  struct SpareBlocks : std::vector<void*> {
    ~SpareBlocks() {
      for (void* p : *this) ::operator delete(p);
    }
  };
  static SpareBlocks& spare() {
    thread_local SpareBlocks blocks;
    return blocks;
  }

  ShmTransport& transport_;
  ShmOpPtr op_;
  int peer_;
};

}  // namespace

ShmConnection::ShmConnection(ShmTransport& transport, ShmPeer peer)
    : transport_(transport),
      peer_(std::move(peer)),
      segment_(peer_.segment.get()),
      inbox_(segment_.ring[1 - peer_.side], context("receive"),
             [this](char* into, uint64_t address, size_t bytes) { pull(into, address, bytes); }, kMaxHeldBytes),
      outbox_(segment_.ring[peer_.side], context("send"), peer_.peer_can_pull) {
  transport_.attach(*this);
}

ShmConnection::~ShmConnection() { transport_.detach(*this); }

ErrorContext ShmConnection::context(const char* phase) const {
  return ErrorContext{transport_.rank(), peer_.rank, "shm", phase, 0, "memfd"};
}

RequestPtr ShmConnection::isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) {
  if (!mr.contains(offset, bytes)) throw Error(ErrorKind::kInvalidArgument, "isend outside its memory region", context("isend"));
  if (failure_) std::rethrow_exception(failure_);
  ShmOpPtr op = outbox_.post(mr.base() + offset, bytes, tag);
  service();  // an eager message that fits is in the ring before isend returns
  return std::make_unique<ShmRequest>(transport_, std::move(op), peer_.rank);
}

RequestPtr ShmConnection::irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) {
  if (!mr.contains(offset, bytes)) throw Error(ErrorKind::kInvalidArgument, "irecv outside its memory region", context("irecv"));
  if (failure_) std::rethrow_exception(failure_);
  ShmOpPtr op = inbox_.post(mr.base() + offset, bytes, tag);
  // A receive that met its single copy here sends its kDone now if the ring has room; it
  // completes once the kDone is out (PendingDone), so its waiter drives the rest.
  service();
  return std::make_unique<ShmRequest>(transport_, std::move(op), peer_.rank);
}

void ShmConnection::pull(char* into, uint64_t address, size_t bytes) const {
  for (size_t done = 0; done < bytes;) {
    iovec local{into + done, bytes - done};
    iovec remote{reinterpret_cast<void*>(address + done), bytes - done};
    ssize_t n = process_vm_readv(peer_.pid, &local, 1, &remote, 1, 0);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (errno == ESRCH)
      throw Error(ErrorKind::kPeerLost, "connection to rank " + std::to_string(peer_.rank) + " lost: its process is gone",
                  context("single copy"));
    throw_errno("process_vm_readv of " + std::to_string(bytes) + " B from rank " + std::to_string(peer_.rank), context("single copy"));
  }
}

void ShmConnection::notify_peer() {
  std::atomic<uint32_t>& asleep = segment_.asleep[1 - peer_.side];
  if (asleep.load(std::memory_order_seq_cst) && asleep.exchange(0)) {
    const char bell = 1;
    [[maybe_unused]] ssize_t r = ::send(peer_.socket.get(), &bell, 1, MSG_DONTWAIT | MSG_NOSIGNAL);  // full: it has bells
  }
}

void ShmConnection::service() {
  if (failure_) return;
  try {
    size_t moved = inbox_.drain();
    for (auto& done : inbox_.dones_received()) outbox_.complete(done);
    inbox_.dones_received().clear();
    moved += outbox_.pump(inbox_.dones_to_send());
    if (moved) notify_peer();
    if (closed_ && !inbox_.has_unread())
      throw Error(ErrorKind::kPeerLost,
                  "connection to rank " + std::to_string(peer_.rank) + " lost: the peer closed it (exited or was killed)",
                  context("transfer"));
  } catch (const Error&) {
    fail(std::current_exception());
  }
}

bool ShmConnection::has_work() const {
  if (failure_) return false;
  return closed_ || inbox_.has_unread() || outbox_.has_work(inbox_.dones_to_send());
}

void ShmConnection::announce_sleep(bool asleep) { segment_.asleep[peer_.side].store(asleep ? 1 : 0, std::memory_order_seq_cst); }

void ShmConnection::on_socket_event() {
  char bells[256];
  while (true) {
    ssize_t r = ::recv(peer_.socket.get(), bells, sizeof bells, MSG_DONTWAIT);
    if (r > 0) continue;
    if (r == 0 || (errno != EAGAIN && errno != EINTR)) closed_ = true;
    if (r == 0 || errno != EINTR) return;
  }
}

void ShmConnection::fail(std::exception_ptr e) {
  failure_ = e;
  inbox_.fail_pending(e);
  outbox_.fail_pending(e);
  transport_.record_failure(e);
}

}  // namespace ccb::shm
