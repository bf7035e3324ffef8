#include "transport/verbs/verbs_device.h"

#include <unistd.h>

#include <cerrno>
#include <sstream>

#include "core/error.h"

namespace ccb::verbs {
namespace {

const char* gid_type_name(uint32_t type, bool ib_link) {
  if (ib_link) return "IB";
  return type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" : "RoCE v1";
}

bool has_active_port(ibv_context* ctx, int wanted_port) {
  ibv_device_attr dev{};
  if (ibv_query_device(ctx, &dev) != 0) return false;
  for (int p = 1; p <= dev.phys_port_cnt; ++p) {
    ibv_port_attr a{};
    if ((wanted_port == 0 || wanted_port == p) && ibv_query_port(ctx, static_cast<uint8_t>(p), &a) == 0 && a.state == IBV_PORT_ACTIVE)
      return true;
  }
  return false;
}

std::string device_names(ibv_device** list) {
  std::string names;
  for (int i = 0; list[i]; ++i) names += std::string(names.empty() ? "" : ", ") + ibv_get_device_name(list[i]);
  return names;
}

std::vector<ibv_gid_entry> gid_table(ibv_context* ctx, int entries) {
  std::vector<ibv_gid_entry> table(static_cast<size_t>(std::max(entries, 1)));
  ssize_t n = ibv_query_gid_table(ctx, table.data(), table.size(), 0);
  if (n < 0) throw_errno("ibv_query_gid_table", {-1, -1, "verbs", "setup", static_cast<int>(-n), ""});
  table.resize(static_cast<size_t>(n));
  return table;
}

std::string valid_gids(const std::vector<ibv_gid_entry>& table, int port) {
  std::ostringstream s;
  for (const auto& e : table)
    if (static_cast<int>(e.port_num) == port)
      s << " " << e.gid_index << "=" << gid_to_string(e.gid) << (e.gid_type == IBV_GID_TYPE_ROCE_V2 ? "(v2)" : "");
  std::string text = s.str();
  return text.empty() ? " none" : text;
}

}  // namespace

std::string PortChoice::describe() const {
  std::ostringstream s;
  s << device << ":" << port << " gid[" << gid_index << "]=" << gid_to_string(gid) << " (" << gid_type
    << ") mtu=" << (128 << attr.active_mtu);
  return s.str();
}

int score_gid(const ibv_gid_entry& e) {
  bool link_local = e.gid.raw[0] == 0xfe && (e.gid.raw[1] & 0xc0) == 0x80;
  return (e.gid_type == IBV_GID_TYPE_ROCE_V2 ? 4 : 0) + (gid_is_ipv4_mapped(e.gid) ? 2 : 0) + (link_local ? 0 : 1);
}

int choose_gid(const std::vector<ibv_gid_entry>& table, int port) {
  int best = -1, best_score = -1;
  for (const auto& e : table) {
    if (static_cast<int>(e.port_num) != port) continue;
    int s = score_gid(e);
    if (s > best_score) best = static_cast<int>(e.gid_index), best_score = s;
  }
  return best;
}

ContextPtr open_device(const VerbsOptions& o) {
  int n = 0;
  DeviceList list(ibv_get_device_list(&n));
  if (!list || n == 0)
    throw_invalid("no RDMA device found: load the NIC's driver, or make a soft-RoCE one with "
                  "`rdma link add rxe0 type rxe netdev IFACE`, or use --transport tcp");
  for (int i = 0; i < n; ++i) {
    if (!o.device.empty() && o.device != ibv_get_device_name(list[i])) continue;
    ContextPtr ctx(ibv_open_device(list[i]));
    if (!ctx) throw_errno(std::string("ibv_open_device(") + ibv_get_device_name(list[i]) + ")", {-1, -1, "verbs", "setup", errno, ""});
    if (!o.device.empty() || has_active_port(ctx.get(), o.port)) return ctx;
  }
  if (!o.device.empty())
    throw_invalid("no RDMA device '" + o.device + "': this host has " + device_names(list.get()) + " (see ibv_devices)");
  std::string which = o.port ? "active port " + std::to_string(o.port) : std::string("active port");
  throw_invalid("no RDMA device has an " + which + " (" + device_names(list.get()) +
                "): check the link with ibv_devinfo, or pick one with --ib-dev/--ib-port");
}

void check_device(const VerbsOptions& o) {
  ContextPtr ctx = open_device(o);
  choose_port(ctx.get(), o);
}

double ib_line_rate_gbps(uint8_t width, uint8_t speed) {
  int lanes = width == 1 ? 1 : width == 2 ? 4 : width == 4 ? 8 : width == 8 ? 12 : width == 16 ? 2 : 0;
  double lane = 0;
  switch (static_cast<unsigned>(speed)) {
    case 1: lane = 2.5; break;   // SDR
    case 2: lane = 5; break;     // DDR
    case 4: case 8: lane = 10; break;  // QDR, FDR10
    case 16: lane = 14; break;   // FDR
    case 32: lane = 25; break;   // EDR
    case 64: lane = 50; break;   // HDR
    case 128: lane = 100; break; // NDR
    default: break;
  }
  return lanes * lane;
}

LinkInfo verbs_link(const PortChoice& c) {
  LinkInfo l;
  l.nic = c.device + ":" + std::to_string(c.port);
  l.firmware = c.firmware;
  l.line_rate_gbps = ib_line_rate_gbps(c.attr.active_width, c.attr.active_speed);
  std::string counter = "/sys/class/infiniband/" + c.device + "/ports/" + std::to_string(c.port) + "/counters/port_xmit_data";
  if (access(counter.c_str(), R_OK) == 0) {
    l.tx_counter = counter;
    l.tx_counter_unit = 4;
  }
  char driver[256] = {};
  std::string link = "/sys/class/infiniband/" + c.device + "/device/driver";
  ssize_t n = readlink(link.c_str(), driver, sizeof driver - 1);
  std::string target(driver, n > 0 ? static_cast<size_t>(n) : 0);
  l.driver = n > 0 ? target.substr(target.rfind('/') + 1) : c.device.substr(0, c.device.find_first_of("0123456789_"));
  return l;
}

PortChoice choose_port(ibv_context* ctx, const VerbsOptions& o) {
  PortChoice c;
  c.device = ibv_get_device_name(ctx->device);
  ibv_device_attr dev{};
  if (ibv_query_device(ctx, &dev) != 0) throw_errno("ibv_query_device(" + c.device + ")", {-1, -1, "verbs", "setup", errno, c.device});
  c.firmware = dev.fw_ver;
  c.port = o.port;
  for (int p = 1; c.port == 0 && p <= dev.phys_port_cnt; ++p) {
    ibv_port_attr a{};
    if (ibv_query_port(ctx, static_cast<uint8_t>(p), &a) == 0 && a.state == IBV_PORT_ACTIVE) c.port = p;
  }
  if (c.port < 1 || c.port > dev.phys_port_cnt)
    throw_invalid(c.device + " has no " + (o.port ? "port " + std::to_string(o.port) : std::string("active port")) +
                  " (it has " + std::to_string(dev.phys_port_cnt) + "): check ibv_devinfo, or set --ib-port");
  if (ibv_query_port(ctx, static_cast<uint8_t>(c.port), &c.attr) != 0) throw_errno("ibv_query_port(" + c.device + ")", {-1, -1, "verbs", "setup", errno, c.device + ":" + std::to_string(c.port)});
  if (c.attr.state != IBV_PORT_ACTIVE)
    throw_invalid(c.device + " port " + std::to_string(c.port) + " is " + ibv_port_state_str(c.attr.state) +
                  ", not active: bring the link up (ibv_devinfo shows its state)");
  bool ib_link = c.attr.link_layer == IBV_LINK_LAYER_INFINIBAND;
  auto table = gid_table(ctx, c.attr.gid_tbl_len);
  c.gid_index = o.gid_index >= 0 ? o.gid_index : choose_gid(table, c.port);
  if (c.gid_index < 0 && ib_link) c.gid_index = 0;
  for (const auto& e : table) {
    if (static_cast<int>(e.port_num) != c.port || static_cast<int>(e.gid_index) != c.gid_index) continue;
    c.gid = e.gid;
    c.gid_type = gid_type_name(e.gid_type, ib_link);
    return c;
  }
  if (ib_link && c.gid_index == 0 && ibv_query_gid(ctx, static_cast<uint8_t>(c.port), 0, &c.gid) == 0) return c.gid_type = "IB", c;
  throw_invalid("GID index " + std::to_string(c.gid_index) + " of " + c.device + " port " + std::to_string(c.port) +
                " is not a valid entry; valid:" + valid_gids(table, c.port) + " (drop --gid-index to pick automatically)");
}

}  // namespace ccb::verbs
