// A message on one connection, as the sockets and shm backends match it: its tag and its
// place among that tag's messages in one direction (transport.h's per-tag order).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ccb {

struct MessageKey {
  uint32_t tag;
  uint64_t seq;
  bool operator==(const MessageKey&) const = default;
};
struct MessageKeyHash {
  size_t operator()(const MessageKey& k) const { return (k.seq * 0x9E3779B97F4A7C15ull) ^ k.tag; }
};

}  // namespace ccb
