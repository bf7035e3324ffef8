// A message on one connection, as the sockets and shm backends match it: its tag and its
// place among that tag's messages in one direction (transport.h's per-tag order).
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace ccb {

struct MessageKey {
  uint32_t tag;
  uint64_t seq;
  bool operator==(const MessageKey&) const = default;
};
struct MessageKeyHash {
  size_t operator()(const MessageKey& k) const { return (k.seq * 0x9E3779B97F4A7C15ull) ^ k.tag; }
};

// The next sequence number of each tag in one direction. A collective posts runs of a
// few tags, so a small cache of counters in front of the map keeps the hash off the path
// of a small message (the map's nodes never move, so the cached pointers stay good).
class TagSequence {
 public:
  TagSequence() = default;
  TagSequence(const TagSequence&) = delete;
  TagSequence& operator=(const TagSequence&) = delete;

  uint64_t next(uint32_t tag) {
    Cached& c = cache_[tag % kCached];
    if (!c.count || c.tag != tag) c = {tag, &counts_[tag]};
    return (*c.count)++;
  }

 private:
  static constexpr uint32_t kCached = 8;
  struct Cached {
    uint32_t tag = 0;
    uint64_t* count = nullptr;
  };
  std::unordered_map<uint32_t, uint64_t> counts_;
  Cached cache_[kCached];
};

}  // namespace ccb
