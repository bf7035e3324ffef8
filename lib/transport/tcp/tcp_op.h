// The state of one send or receive, shared by its Request handle and the streams
// moving its chunks (so a dropped handle never leaves a stream with a dangling op).
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

namespace ccb::tcp {

struct TcpOp {
  enum class Kind { kSend, kRecv };
  Kind kind;
  uint32_t tag;
  uint64_t seq;
  char* buf;
  size_t capacity;
  size_t total;  // for a receive: SIZE_MAX until the first chunk says
  size_t assigned = 0;  // bytes of chunks given a place (a receive's)
  size_t done = 0;
  bool complete = false;
  std::exception_ptr error;
  std::vector<char> storage;          // owns buf for an unexpected message
  std::shared_ptr<TcpOp> unexpected;  // a receive that matched a buffered message

  TcpOp(Kind k, uint32_t t, uint64_t s, char* b, size_t cap, size_t tot)
      : kind(k), tag(t), seq(s), buf(b), capacity(cap), total(tot) {}
  void add_done(size_t n) {
    done += n;
    if (done == total) complete = true;
  }
};
using TcpOpPtr = std::shared_ptr<TcpOp>;

}  // namespace ccb::tcp
