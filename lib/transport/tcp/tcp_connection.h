// A connection to one peer over several sockets, with tag matching and buffering of
// messages that arrive before their receive is posted.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "transport/message_key.h"
#include "transport/tcp/tcp_options.h"
#include "transport/tcp/tcp_stream.h"
#include "transport/transport.h"

namespace ccb::tcp {

class TcpTransport;


class TcpConnection final : public Connection, public ChunkSink {
 public:
  TcpConnection(TcpTransport& transport, int peer, std::vector<Fd> sockets, const TcpOptions& opts);
  ~TcpConnection() override;

  int peer() const override { return peer_; }
  RequestPtr isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override;
  RequestPtr irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override;

  TcpOpPtr place_chunk(const ChunkHeader& h) override;
  // Called by the transport's engine; records failures instead of throwing.
  void service();
  const std::vector<std::unique_ptr<TcpStream>>& streams() const { return streams_; }

 private:
  void fail(std::exception_ptr e);
  [[noreturn]] void protocol_error(const std::string& what) const;
  ErrorContext context(const char* phase) const;

  TcpTransport& transport_;
  int peer_;
  TcpOptions opts_;
  std::vector<std::unique_ptr<TcpStream>> streams_;
  size_t next_stream_ = 0;
  TagSequence send_seq_, recv_seq_;
  std::unordered_map<MessageKey, TcpOpPtr, MessageKeyHash> posted_, unexpected_;
  std::exception_ptr failure_;
};

}  // namespace ccb::tcp
