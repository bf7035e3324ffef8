#include "transport/tcp/tcp_connection.h"

#include <algorithm>

#include "core/error.h"
#include "transport/tcp/tcp_transport.h"

namespace ccb::tcp {
namespace {

class TcpRequest final : public Request {
 public:
  TcpRequest(TcpTransport& t, TcpOpPtr op, int peer) : transport_(t), op_(std::move(op)), peer_(peer) {}

  bool test() override {
    if (op_->complete) return true;
    transport_.progress();
    if (op_->unexpected) adopt_unexpected();
    if (op_->complete) return true;
    if (op_->error) std::rethrow_exception(op_->error);
    transport_.rethrow_failure();
    return false;
  }
  size_t bytes() const override { return op_->kind == TcpOp::Kind::kRecv ? op_->total : op_->capacity; }
  std::string describe() const override {
    bool recv = op_->kind == TcpOp::Kind::kRecv;
    return std::string(recv ? "recv from" : "send to") + " rank " + std::to_string(peer_) +
           " (tag " + std::to_string(op_->tag) + ", " + std::to_string(op_->capacity) + " B)";
  }

 private:
  // The message arrived before this receive was posted: copy it over once complete.
  void adopt_unexpected() {
    TcpOp& u = *op_->unexpected;
    if (u.error) std::rethrow_exception(u.error);
    if (!u.complete) return;
    if (u.total > op_->capacity) {
      ErrorContext ctx{transport_.rank(), peer_, std::string(transport_.name()), "receive", 0, transport_.device()};
      throw Error(ErrorKind::kProtocol,
                  "message of " + std::to_string(u.total) + " B on tag " + std::to_string(op_->tag) +
                      " is larger than the receive posted for it (" + std::to_string(op_->capacity) + " B)",
                  ctx);
    }
    std::copy_n(u.buf, u.total, op_->buf);
    op_->total = u.total;
    op_->done = u.total;
    op_->complete = true;
    transport_.release_unexpected(u.total);
    op_->unexpected.reset();
  }

  TcpTransport& transport_;
  TcpOpPtr op_;
  int peer_;
};

}  // namespace

TcpConnection::TcpConnection(TcpTransport& transport, int peer, std::vector<Fd> sockets, const TcpOptions& opts)
    : transport_(transport), peer_(peer), opts_(opts) {
  for (auto& fd : sockets) streams_.push_back(std::make_unique<TcpStream>(std::move(fd), *this));
  transport_.attach(*this);
}

TcpConnection::~TcpConnection() { transport_.detach(*this); }

ErrorContext TcpConnection::context(const char* phase) const {
  return ErrorContext{transport_.rank(), peer_, std::string(transport_.name()), phase, 0, transport_.device()};
}

RequestPtr TcpConnection::isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) {
  if (!mr.contains(offset, bytes)) throw Error(ErrorKind::kInvalidArgument, "isend outside its memory region", context("isend"));
  if (failure_) std::rethrow_exception(failure_);
  auto op = std::make_shared<TcpOp>(TcpOp::Kind::kSend, tag, send_seq_.next(tag), mr.base() + offset, bytes, bytes);
  const size_t n = streams_.size();
  const size_t chunk = std::max(opts_.min_chunk, (bytes + n - 1) / n);
  size_t off = 0;
  do {
    size_t len = std::min(chunk, bytes - off);
    ChunkHeader h{kChunkMagic, tag, op->seq, bytes, off, static_cast<uint32_t>(len), 0};
    streams_[next_stream_++ % n]->enqueue(op, h, op->buf + off);
    off += len;
  } while (off < bytes);
  return std::make_unique<TcpRequest>(transport_, std::move(op), peer_);
}

RequestPtr TcpConnection::irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) {
  if (!mr.contains(offset, bytes)) throw Error(ErrorKind::kInvalidArgument, "irecv outside its memory region", context("irecv"));
  if (failure_) std::rethrow_exception(failure_);
  MessageKey key{tag, recv_seq_.next(tag)};
  auto op = std::make_shared<TcpOp>(TcpOp::Kind::kRecv, tag, key.seq, mr.base() + offset, bytes, SIZE_MAX);
  if (auto it = unexpected_.find(key); it != unexpected_.end()) {
    op->unexpected = std::move(it->second);
    unexpected_.erase(it);
    // Chunks still on their way keep landing in the buffered copy.
    if (op->unexpected->assigned < op->unexpected->total) posted_.emplace(key, op->unexpected);
  } else {
    posted_.emplace(key, op);
    for (auto& st : streams_) st->unpark();
  }
  return std::make_unique<TcpRequest>(transport_, std::move(op), peer_);
}

void TcpConnection::protocol_error(const std::string& what) const {
  throw Error(ErrorKind::kProtocol, what, context("receive"));
}

TcpOpPtr TcpConnection::place_chunk(const ChunkHeader& h) {
  if (h.magic != kChunkMagic) protocol_error("corrupt stream: bad chunk magic (not a ccbench peer, or a bug)");
  if (h.total > kMaxMessageBytes || h.len > h.total || h.offset > h.total - h.len)
    protocol_error("corrupt chunk header: offset " + std::to_string(h.offset) + " + " + std::to_string(h.len) +
                   " exceeds message size " + std::to_string(h.total));
  MessageKey key{h.tag, h.seq};
  TcpOpPtr op;
  if (auto it = posted_.find(key); it != posted_.end()) {
    op = it->second;
    if (op->total == SIZE_MAX) {
      if (h.total > op->capacity)
        protocol_error("message of " + std::to_string(h.total) + " B on tag " + std::to_string(h.tag) +
                       " is larger than the receive posted for it (" + std::to_string(op->capacity) + " B)");
      op->total = h.total;
      if (h.total == 0) op->complete = true;
    }
  } else if (auto u = unexpected_.find(key); u != unexpected_.end()) {
    op = u->second;
  } else {
    // Large messages wait in the socket for their receive (rendezvous by backpressure,
    // as MPI does above its eager limit); only small ones are buffered here.
    if (h.total > opts_.eager_limit) return nullptr;
    if (!transport_.hold_unexpected(h.total))
      protocol_error("too many bytes arrived for receives not yet posted (limit " +
                     std::to_string(opts_.max_unexpected) + " B): post receives earlier");
    op = std::make_shared<TcpOp>(TcpOp::Kind::kRecv, h.tag, h.seq, nullptr, h.total, h.total);
    op->storage.resize(h.total);
    op->buf = op->storage.data();
    op->complete = h.total == 0;
    unexpected_.emplace(key, op);
  }
  if (op->total != h.total) protocol_error("chunks of one message disagree on its size");
  // Once every byte has a place, the receive leaves the table; the stream keeps it alive.
  op->assigned += h.len;
  if (op->assigned == op->total) posted_.erase(key);
  return op;
}

void TcpConnection::service() {
  if (failure_) return;
  try {
    for (auto& s : streams_)
      if (!s->service())
        throw Error(ErrorKind::kPeerLost,
                    "connection to rank " + std::to_string(peer_) + " lost: the peer closed it (exited or was killed)",
                    context("transfer"));
  } catch (const Error&) {
    fail(std::current_exception());
  }
}

void TcpConnection::fail(std::exception_ptr e) {
  failure_ = e;
  for (auto& s : streams_) s->fail_pending(e);
  for (auto& [key, op] : posted_) op->error = e;
  for (auto& [key, op] : unexpected_) op->error = e;
  posted_.clear();
  transport_.record_failure(e);
}

}  // namespace ccb::tcp
