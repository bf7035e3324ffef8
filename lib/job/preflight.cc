#include "job/preflight.h"

#include <sched.h>

#include <fstream>
#include <string>

#include "core/error.h"
#include "core/fd.h"
#include "core/units.h"
#include "job/rails.h"
#include "metrics/host_manifest.h"
#include "net/socket_util.h"
#include "transport/tcp/netdev_info.h"
#include "transport/ipoib/ipoib_interface.h"
#include "transport/tcp/tcp_transport.h"
#include "transport/verbs/verbs_device.h"

namespace ccb {
namespace {

// Descriptors a rank needs besides its peers: store connections (rank 0 holds one per
// rank, counted separately), listeners, epoll, eventfds, files, the RDMA device.
constexpr uint64_t kDescriptorsBesidesPeers = 64;

std::string with_commas(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

// MemAvailable in bytes; 0 when /proc/meminfo does not say.
uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  uint64_t kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib << 10;
  return 0;
}

}  // namespace

static void check_one_rail_here(const TransportChoice& t) {
  if (t.name == "verbs") return verbs::check_device(t.verbs);
  if (t.name == "shm") return;  // nothing to bind: its sockets are abstract, its segments memfds
  TcpOptions tcp = t.tcp;
  if (t.name == "ipoib") {
    if (!tcp.address.empty())
      throw_invalid("--bind does not apply to --transport ipoib, which binds to the IPoIB interface's address: "
                    "use --iface");
    tcp.iface = choose_ipoib_interface(t.ipoib, tcp.iface).name;
  }
  tcp::check_tcp_options(tcp);
}

void check_transport_here(const TransportChoice& t) {
  for (const TransportChoice& rail : each_rail(t)) check_one_rail_here(rail);
}

void check_fd_budget(const TransportChoice& t, int world_size) {
  const uint64_t limit = raise_fd_limit();
  const uint64_t per_peer = t.name == "verbs" ? static_cast<uint64_t>(t.verbs.qps) + 1
                                              : static_cast<uint64_t>(t.tcp.streams);
  const auto peers = static_cast<uint64_t>(world_size - 1);
  const uint64_t need = peers * per_peer + static_cast<uint64_t>(world_size) + kDescriptorsBesidesPeers;
  if (limit == 0 || need <= limit) return;
  throw_invalid("too many open files: ulimit -n is " + with_commas(limit) + ", world size " +
                std::to_string(world_size) + " needs about " + with_commas(need) + ": raise it (ulimit -n " +
                std::to_string(need) + " as root, or the hard limit in /etc/security/limits.conf)" +
                (per_peer > 1 ? " or use fewer streams or QPs per peer" : ""));
}

std::vector<int> cpus_near_nic(const std::string& root, const std::string& nic) {
  const int node = read_nic_manifest(root, nic).numa_node;
  std::vector<int> cpus = numa_node_cpus(root, node);
  if (node < 0 || cpus.empty())
    throw_invalid("--bind-numa: this machine does not say which NUMA node " + nic + " is on (no numa_node, or -1, " +
                  "in its sysfs device): drop --bind-numa, or bind by hand (numactl, --bind-cores)");
  return cpus;
}

static void check_bind_numa_on_rail(const TransportChoice& t) {
  const TcpOptions& tcp = t.tcp;
  const std::string nic = t.name == "verbs"     ? t.verbs.device
                          : !tcp.iface.empty() ? tcp.iface
                                               : interface_holding(resolve_host(tcp.address.empty() ? "127.0.0.1" : tcp.address, 0));
  if (!nic.empty()) cpus_near_nic("/", nic);
}

void check_bind_numa_here(const TransportChoice& t) {
  for (const TransportChoice& rail : each_rail(t)) check_bind_numa_on_rail(rail);
}

void bind_near_nic(const std::string& nic) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus_near_nic("/", nic))
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) throw_errno("--bind-numa: sched_setaffinity to the CPUs near " + nic);
}

void check_memory_fits(uint64_t largest_bytes, int ranks_here, uint64_t largest_recv_bytes) {
  const uint64_t available = available_memory();
  if (available == 0) return;
  const long double per_rank = static_cast<long double>(largest_bytes) +
                               static_cast<long double>(largest_recv_bytes ? largest_recv_bytes : largest_bytes);
  if (per_rank * ranks_here <= static_cast<long double>(available)) return;
  const auto gib = [](long double b) { return std::to_string(static_cast<uint64_t>(b / (1ull << 30))) + " GiB"; };
  throw_invalid("the largest size, " + format_bytes(largest_bytes) + ", needs send and receive buffers of " +
                gib(per_rank) + " per rank x " + std::to_string(ranks_here) + " rank(s) on this host, but " +
                gib(static_cast<long double>(available)) + " is available: pick smaller sizes or fewer ranks");
}

}  // namespace ccb
