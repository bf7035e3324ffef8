// One socket of a TCP connection: a queue of chunks to write and a parser of chunks
// arriving. Both run non-blocking; the transport's epoll engine says when to retry.
#pragma once
#include <cstddef>
#include <deque>
#include <vector>

#include "net/socket_util.h"
#include "transport/tcp/tcp_op.h"
#include "transport/tcp/tcp_wire.h"

namespace ccb::tcp {

// What the stream asks its connection: where does this chunk go? Returns the
// destination (the receive's buffer, or a buffered small message's), nullptr when the
// chunk must wait in the socket until its receive is posted, or throws.
class ChunkSink {
 public:
  virtual ~ChunkSink() = default;
  virtual TcpOpPtr place_chunk(const ChunkHeader& h) = 0;
};

class TcpStream {
 public:
  TcpStream(Fd fd, ChunkSink& sink);
  int fd() const { return fd_.get(); }

  void enqueue(TcpOpPtr op, const ChunkHeader& header, const char* data);
  void mark_ready(bool readable, bool writable);
  void unpark() { parked_ = false; }
  // Moves what it can without blocking. Throws on a socket error or a bad header;
  // returns false when the peer closed the stream (EOF).
  bool service();
  void fail_pending(const std::exception_ptr& e);

 private:
  struct Outgoing {
    TcpOpPtr op;
    ChunkHeader header;
    const char* data;
    size_t sent = 0;  // of sizeof(header) + header.len
  };
  enum class State { kHeader, kPayload };

  void flush();
  bool drain();
  bool read_more(char* dst, size_t n, size_t& got);  // false on EOF
  bool eof();
  bool begin_chunk();  // false: parked
  void consume_staged();

  Fd fd_;
  ChunkSink& sink_;
  bool readable_ = false;
  bool eof_ = false;
  bool parked_ = false;  // the next chunk's receive is not posted yet
  bool writable_ = true;
  std::deque<Outgoing> sendq_;

  std::vector<char> staging_;
  size_t stage_pos_ = 0;
  size_t stage_end_ = 0;
  State state_ = State::kHeader;
  ChunkHeader header_{};
  TcpOpPtr target_;
  char* dst_ = nullptr;
  size_t remaining_ = 0;
};

}  // namespace ccb::tcp
