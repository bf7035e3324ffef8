// Finding the device, port and GID to use, the way perftest does: the first device
// with an active port unless told, and the GID that scores best (RoCE v2 over IPv4).
#pragma once
#include <infiniband/verbs.h>

#include <string>
#include <vector>

#include "transport/verbs/verbs_options.h"
#include "transport/transport.h"
#include "transport/verbs/verbs_resources.h"

namespace ccb::verbs {

struct PortChoice {
  std::string device;
  int port = 1;
  ibv_port_attr attr{};
  int gid_index = 0;
  ibv_gid gid{};
  std::string gid_type;  // "IB", "RoCE v1", "RoCE v2"
  std::string firmware;
  std::string describe() const;  // "rxe0:1 gid[1]=::ffff:192.0.2.1 (RoCE v2) mtu=1024"
  std::string short_name() const {  // "rxe0:1 gid[1]", for errors
    return device + ":" + std::to_string(port) + " gid[" + std::to_string(gid_index) + "]";
  }
};

// Signalling rate of `width` lanes at `speed`, as ibv_devinfo shows them; 0 if unknown.
double ib_line_rate_gbps(uint8_t active_width, uint8_t active_speed);
// Rate, firmware and the port's port_xmit_data counter (4-byte units), when sysfs has it.
LinkInfo verbs_link(const PortChoice& port);

// Higher is better: RoCE v2 over v1, an IPv4-mapped address, then not link-local.
int score_gid(const ibv_gid_entry& e);
// The best-scoring valid entry of `port`; -1 when there is none.
int choose_gid(const std::vector<ibv_gid_entry>& table, int port);

// Opens --ib-dev (or the first device with an active port). Throws a one-line
// invalid-argument error when there is no such device.
ContextPtr open_device(const VerbsOptions& o);
// Opens and closes the device and port a run would use: a one-line error, before any
// rank starts, when there is none.
void check_device(const VerbsOptions& o);
// Picks the port and GID of an open device (also used with rdma_cm's context).
PortChoice choose_port(ibv_context* ctx, const VerbsOptions& o);

}  // namespace ccb::verbs
