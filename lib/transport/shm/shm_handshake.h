// How two ranks on one host meet: over an abstract Unix socket, named at random and
// published through the bootstrap store as "<host key> <pid> <name>".
//
//   higher rank                                   lower rank (listens)
//   connect; the listener's SO_PEERCRED pid must
//   be the pid the store published         ->    SO_PEERCRED uid must be ours; Hello's
//   Hello {token, ranks, probe}                   token and ranks must match
//                                          <-    Ack {status, probe, can_pull} + the memfd
//   Confirm {can_pull}                      ->
//
// The probe is a word each side publishes the address and value of; a side that reads
// it back with process_vm_readv may pull the other's large messages in one copy. After
// the handshake the socket stays open: a byte on it wakes a sleeping peer, and its
// closing says the peer is gone (kill -9 included).
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>

#include "core/fd.h"
#include "core/units.h"
#include "net/host_key.h"

namespace ccb::shm {

constexpr uint32_t kHelloMagic = 0x48534343;  // "CCSH"
constexpr uint32_t kWireVersion = 1;

struct Hello {
  uint32_t magic;
  uint32_t version;
  uint64_t token;
  int32_t from_rank;
  int32_t to_rank;
  uint64_t probe_address;
  uint64_t probe_value;
};

enum class HelloStatus : uint32_t { kOk = 0, kBadToken = 1, kWrongRank = 2, kBadVersion = 3, kWrongUser = 4 };

struct Ack {
  uint32_t magic;
  uint32_t status;
  uint64_t probe_address;
  uint64_t probe_value;
  uint32_t can_pull;  // the lower rank may read the higher rank's memory
  uint32_t reserved;
};

struct Confirm {
  uint32_t magic;
  uint32_t can_pull;  // the higher rank may read the lower rank's memory
};

// What the listener thinks of a Hello from a process of `peer_uid` (pure, so tested alone).
HelloStatus judge_hello(const Hello& h, uint64_t token, int my_rank, uid_t peer_uid, uid_t my_uid);
std::string status_text(HelloStatus s);


struct ShmAddress {
  std::string host;
  pid_t pid = 0;
  std::string name;  // the abstract socket's name, without its leading NUL
};
std::string format_address(const ShmAddress& a);
// Throws kProtocol on anything but "<host> <pid> <name>".
ShmAddress parse_address(const std::string& text);

// An abstract Unix listener under a fresh random name; returns it and sets `name`.
Fd listen_abstract(std::string& name);
Fd connect_abstract(const std::string& name, Deadline deadline);
// The pid and uid of the process at the other end of a Unix socket.
struct PeerCredentials {
  pid_t pid;
  uid_t uid;
};
PeerCredentials peer_credentials(int fd);

void send_with_fd(int socket, const void* buf, size_t n, int fd_to_pass);
// Reads exactly n bytes and the one fd sent with them; false if the peer closed.
bool recv_with_fd(int socket, void* buf, size_t n, Fd& received, Deadline deadline);

// True when `value` can be read at `address` in process `pid` (process_vm_readv).
bool can_read_memory_of(pid_t pid, uint64_t address, uint64_t value);
// What the kernel's ptrace rules (Yama) say before any peer is met: whether ranks that are
// siblings, not parent and child, may read each other's memory. Each pair still proves it.
bool single_copy_expected();

}  // namespace ccb::shm
