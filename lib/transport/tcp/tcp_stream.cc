#include "transport/tcp/tcp_stream.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace ccb::tcp {
namespace {
constexpr size_t kStagingBytes = 64 << 10;
// Payloads at least this large are read straight into their destination.
constexpr size_t kDirectReadBytes = 8 << 10;
// Bytes read per service() before yielding to the other streams.
constexpr size_t kReadBudget = 8 << 20;
}  // namespace

TcpStream::TcpStream(Fd fd, ChunkSink& sink) : fd_(std::move(fd)), sink_(sink), staging_(kStagingBytes) {}

void TcpStream::enqueue(TcpOpPtr op, const ChunkHeader& header, const char* data) {
  sendq_.push_back(Outgoing{std::move(op), header, data});
  if (sendq_.size() == 1 && writable_ && !eof_) flush();
}

void TcpStream::mark_ready(bool readable, bool writable) {
  readable_ = readable_ || readable;
  writable_ = writable_ || writable;
}

bool TcpStream::service() {
  if (writable_ && !sendq_.empty() && !eof_) flush();
  if (!parked_) drain();
  return !eof_;
}

void TcpStream::flush() {
  while (!sendq_.empty()) {
    Outgoing& o = sendq_.front();
    const size_t hdr = sizeof(ChunkHeader);
    iovec iov[2];
    int n = 0;
    if (o.sent < hdr) iov[n++] = {reinterpret_cast<char*>(&o.header) + o.sent, hdr - o.sent};
    size_t data_sent = o.sent > hdr ? o.sent - hdr : 0;
    if (o.header.len > data_sent)
      iov[n++] = {const_cast<char*>(o.data) + data_sent, o.header.len - data_sent};
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = static_cast<size_t>(n);
    ssize_t w = ::sendmsg(fd_.get(), &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        writable_ = false;
        return;
      }
      if (errno == EINTR) continue;
      if (errno == EPIPE || errno == ECONNRESET) {
        eof();
        return;
      }
      throw_errno("send failed");
    }
    o.sent += static_cast<size_t>(w);
    if (o.sent == hdr + o.header.len) {
      o.op->add_done(o.header.len);
      sendq_.pop_front();
    }
  }
}

bool TcpStream::read_more(char* dst, size_t n, size_t& got) {
  got = 0;
  for (;;) {
    ssize_t r = ::recv(fd_.get(), dst, n, MSG_DONTWAIT);
    if (r > 0) {
      got = static_cast<size_t>(r);
      return true;
    }
    if (r == 0) return eof();
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      readable_ = false;
      return true;
    }
    if (errno == ECONNRESET) return eof();
    throw_errno("recv failed");
  }
}

bool TcpStream::begin_chunk() {
  std::memcpy(&header_, staging_.data() + stage_pos_, sizeof header_);
  target_ = sink_.place_chunk(header_);
  if (!target_) {
    parked_ = true;  // backpressure: the sender waits on a full socket, not our heap
    return false;
  }
  stage_pos_ += sizeof header_;
  dst_ = target_->buf + header_.offset;
  remaining_ = header_.len;
  state_ = State::kPayload;
  return true;
}

void TcpStream::consume_staged() {
  size_t n = std::min(remaining_, stage_end_ - stage_pos_);
  if (n == 0) return;  // a 0-byte message may have no buffer: memcpy(nullptr, .., 0) is UB
  std::memcpy(dst_, staging_.data() + stage_pos_, n);
  stage_pos_ += n;
  dst_ += n;
  remaining_ -= n;
}

bool TcpStream::drain() {
  size_t budget = kReadBudget;
  while (readable_ && budget > 0 && !parked_) {
    if (state_ == State::kPayload) {
      consume_staged();
      if (remaining_ == 0) {
        state_ = State::kHeader;
        target_->add_done(header_.len);
        continue;
      }
      if (remaining_ >= kDirectReadBytes) {
        size_t got = 0;
        read_more(dst_, remaining_, got);
        dst_ += got;
        remaining_ -= got;
        budget -= std::min(budget, got);
        continue;
      }
    } else if (stage_end_ - stage_pos_ >= sizeof(ChunkHeader)) {
      begin_chunk();
      continue;
    }
    // Refill the staging buffer (headers and small payloads arrive together).
    if (stage_pos_ > 0) {
      std::memmove(staging_.data(), staging_.data() + stage_pos_, stage_end_ - stage_pos_);
      stage_end_ -= stage_pos_;
      stage_pos_ = 0;
    }
    size_t got = 0;
    read_more(staging_.data() + stage_end_, staging_.size() - stage_end_, got);
    stage_end_ += got;
    budget -= std::min(budget, got);
  }
  // Chunks already staged are parsed even when the socket has gone quiet.
  while (!parked_ && state_ == State::kHeader && stage_end_ - stage_pos_ >= sizeof(ChunkHeader)) {
    if (!begin_chunk()) break;
    consume_staged();
    if (remaining_ > 0) break;
    state_ = State::kHeader;
    target_->add_done(header_.len);
  }
  return !eof_;
}

void TcpStream::fail_pending(const std::exception_ptr& e) {
  for (auto& o : sendq_) o.op->error = e;
  sendq_.clear();
  if (target_) target_->error = e;
}

bool TcpStream::eof() {
  // What arrived before the close is still parsed and delivered by drain().
  eof_ = true;
  readable_ = false;
  return false;
}

}  // namespace ccb::tcp
