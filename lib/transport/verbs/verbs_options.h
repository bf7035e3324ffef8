// Settings of the verbs (RDMA RC) transport, defaulted here, filled by the CLI.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ccb {

enum class VerbsConnectMode { kNative, kRdmaCm };     // --ib-cm native|rdmacm
enum class VerbsCompletionMode { kEvent, kPoll };    // --ib-completion event|poll
// Test-only misbehaviour, to prove a rogue peer gives a clean error (--ib-fault).
enum class VerbsFault { kNone, kBadRkey, kBadTag };

struct VerbsOptions {
  std::string device;        // --ib-dev; empty: the first device with an active port
  int port = 0;              // --ib-port; 0: the first active port
  int gid_index = -1;        // --gid-index; -1: scored like perftest (RoCE v2 + IPv4 first)
  int qps = 1;               // --qps: RC QPs per connection, a message split across them
  int traffic_class = 0;     // --ib-tc (RoCE DSCP << 2)
  int service_level = 0;     // --ib-sl
  int timeout = 14;          // --ib-timeout: 4.096 us * 2^timeout per retry
  int retry_count = 7;       // --ib-retry
  int rnr_retry = 7;         // 7 = retry forever; receives are always pre-posted anyway
  int fifo_depth = 64;       // clear-to-send slots per direction (outstanding receives)
  size_t min_part = 64 << 10;  // a message uses another QP per this many bytes
  VerbsConnectMode connect_mode = VerbsConnectMode::kNative;
  VerbsCompletionMode completion = VerbsCompletionMode::kEvent;
  VerbsFault fault = VerbsFault::kNone;
};

}  // namespace ccb
