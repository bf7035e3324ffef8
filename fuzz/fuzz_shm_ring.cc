// libFuzzer target: a shm peer's ring, every word of it chosen by the input (slot
// stamps, headers, payload lengths), drained by a real ShmInbox with receives
// posted on a few tags. Anything but completed receives or a ccb::Error is a bug: an
// overrun shows as an ASan report, a wild pull as the fake puller's abort.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.h"
#include "transport/shm/shm_inbox.h"

namespace {

// The peer's memory, as far as a pull may reach: anything outside it is a wild address.
constexpr uint64_t kPeerBase = 1ull << 32;
constexpr size_t kPeerBytes = 4 << 20;

void fake_pull(char* into, uint64_t address, size_t bytes) {
  if (address < kPeerBase || bytes > kPeerBytes || address - kPeerBase > kPeerBytes - bytes)
    throw ccb::Error(ccb::ErrorKind::kPeerLost, "pull outside the peer's memory");  // as process_vm_readv's EFAULT
  std::memset(into, 0x5a, bytes);
}

struct RingRecord {  // what the input says of one slot
  ccb::shm::SlotHeader header;
  uint8_t fill;
  uint8_t stamp_noise;  // odd: `stamp` as it is; even: the stamp a sender would write
  uint64_t stamp;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ccb::shm;
  static auto ring = std::make_unique<Ring>();
  if (size < sizeof(uint64_t)) return 0;
  uint64_t published = 0;
  std::memcpy(&published, data, sizeof published);
  data += sizeof published;
  size -= sizeof published;
  published %= kSlots + 2;  // a full ring mostly, past it sometimes
  for (uint32_t s = 0; s < kSlots; ++s) ring->slots[s].stamp.store(0);
  for (uint32_t s = 0; s < kSlots && size >= sizeof(RingRecord); ++s, data += sizeof(RingRecord), size -= sizeof(RingRecord)) {
    RingRecord r;
    std::memcpy(&r, data, sizeof r);
    ring->slots[s].header = r.header;
    std::memset(ring->slots[s].payload, r.fill, 64);
    ring->slots[s].stamp.store(r.stamp_noise & 1 ? r.stamp : s < published ? s + 1 : 0);
  }
  ring->tail.store(0);
  try {
    ccb::ErrorContext ctx{0, 1, "shm", "fuzz", 0, ""};
    ShmInbox inbox(*ring, ctx, fake_pull, 1 << 20);
    static std::vector<char> buf(3 << 20);
    std::vector<ShmOpPtr> recvs;
    for (uint32_t tag = 0; tag < 3; ++tag) recvs.push_back(inbox.post(buf.data() + (size_t{tag} << 20), 1 << 20, tag));
    for (int round = 0; round < 4 && inbox.drain() > 0; ++round) {
    }
  } catch (const ccb::Error&) {
  }
  return 0;
}
