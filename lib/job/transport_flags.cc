#include "job/transport_flags.h"

#include <algorithm>
#include <map>

#include "core/error.h"
#include "core/memory_space.h"

namespace ccb {

// A flag of named values: its help shows "native|rdmacm", not CLI11's "ENUM:value in
// {native->0,rdmacm->1} OR {0,1}".
template <typename Enum>
static CLI::Option* add_named(CLI::App& app, const std::string& flag, Enum& into, const std::string& help,
                              const std::map<std::string, Enum>& names) {
  std::string shown;
  for (const auto& [name, value] : names) shown += (shown.empty() ? "" : "|") + name;
  CLI::Option* o = app.add_option(flag, into, help)->transform(CLI::CheckedTransformer(names));
  o->get_validator()->description("");
  return o->type_name(shown);
}

static void add_verbs_flags(CLI::App& app, VerbsOptions& v) {
  app.add_option("--ib-dev", v.device, "RDMA device (default: each local rank takes the active device nearest its CPUs by NUMA distance, in turn in PCI order); a list (mlx5_0,mlx5_1) gives one rail per local rank, shared in turn when there are fewer")->group("Verbs");
  app.add_option("--ib-port", v.port, "Port of the device (default: the first active)")->check(CLI::Range(0, 255))->group("Verbs");
  app.add_option("--gid-index", v.gid_index, "GID index (default: best scored, RoCE v2 + IPv4 first)")->check(CLI::Range(-1, 65535))->group("Verbs");
  app.add_option("--qps", v.qps, "RC queue pairs per connection")->check(CLI::Range(1, 15))->capture_default_str()->group("Verbs");
  app.add_option("--ib-tc", v.traffic_class, "Traffic class (RoCE: DSCP << 2)")->check(CLI::Range(0, 255))->capture_default_str()->group("Verbs");
  app.add_option("--ib-sl", v.service_level, "Service level")->check(CLI::Range(0, 15))->capture_default_str()->group("Verbs");
  app.add_option("--ib-timeout", v.timeout, "Ack timeout exponent: 4.096 us * 2^N")->check(CLI::Range(0, 31))->capture_default_str()->group("Verbs");
  app.add_option("--ib-retry", v.retry_count, "Transport retries before a send fails")->check(CLI::Range(0, 7))->capture_default_str()->group("Verbs");
  app.add_option("--ib-rnr-retry", v.rnr_retry, "Receiver-not-ready retries (7: forever)")->check(CLI::Range(0, 7))->capture_default_str()->group("Verbs");
  add_named(app, "--ib-cm", v.connect_mode, "Connection set-up: native (QP info over the bootstrap network) or rdmacm (default: native)",
            std::map<std::string, VerbsConnectMode>{{"native", VerbsConnectMode::kNative}, {"rdmacm", VerbsConnectMode::kRdmaCm}})
      ->group("Verbs");
  add_named(app, "--ib-completion", v.completion, "event (sleep on the completion channel) or poll (spin) (default: event)",
            std::map<std::string, VerbsCompletionMode>{{"event", VerbsCompletionMode::kEvent}, {"poll", VerbsCompletionMode::kPoll}})
      ->group("Verbs");
  // Misbehaves on purpose, so tests can prove a rogue peer meets a clean error.
  add_named(app, "--ib-fault", v.fault, "",
            std::map<std::string, VerbsFault>{{"none", VerbsFault::kNone}, {"bad-rkey", VerbsFault::kBadRkey}, {"bad-tag", VerbsFault::kBadTag}})
      ->group("");
}

void add_transport_flags(CLI::App& app, TransportChoice& t) {
  app.add_option("--transport", t.name, "tcp, shm (shared memory: every rank on this host), ipoib (TCP over an IPoIB interface) or verbs")->check(CLI::IsMember(transport_names()))->capture_default_str();
  app.add_option("--tcp-streams", t.tcp.streams, "Sockets per peer connection")->check(CLI::Range(1, 64))->capture_default_str()->group("TCP");
  app.add_option("--iface", t.tcp.iface, "Bind the data sockets to this interface; a list (eth1,eth2) gives one rail per local rank, shared in turn when there are fewer")->group("TCP");
  app.add_option("--bind", t.tcp.address, "Bind the data sockets to this address")->group("TCP");
  app.add_flag("--ipv6", t.tcp.ipv6, "Prefer the interface's IPv6 address")->group("TCP");
  app.add_option("--tcp-cc", t.tcp.congestion_control, "TCP congestion control of the data sockets (cubic, bbr...; default: the system's)")->group("TCP");
  app.add_flag("--ipoib-force", t.ipoib.force, "Run --transport ipoib over a non-IPoIB --iface anyway")->group("IPoIB");
  // Where sys/ and proc/ are read from, so tests can stand in a fake IPoIB host.
  app.add_option("--ipoib-root", t.ipoib.root, "")->group("");
  add_verbs_flags(app, t.verbs);
  std::string spaces;
  for (const std::string& n : memory_space_names())
    spaces += (spaces.empty() ? "" : "; ") + n + ": " + std::string(memory_space(n).description());
  app.add_option("--memory", t.memory, "Where the collectives' buffers live (" + spaces + ")")
      ->check(CLI::Validator(
          [](std::string& name) {
            try {
              memory_space(name);
              return std::string();
            } catch (const Error& e) {
              return std::string(e.what());
            }
          },
          "", "memory space"))
      ->capture_default_str();
}

void check_transport_flags(const CLI::App& app, const std::vector<std::string>& transports) {
  for (const CLI::Option* o : app.get_options()) {
    const std::string& group = o->get_group();
    if (o->count() == 0 || (group != "TCP" && group != "Verbs" && group != "IPoIB")) continue;
    auto applies = [&group](const std::string& t) {
      return group == "TCP" ? (t == "tcp" || t == "ipoib") : group == "IPoIB" ? t == "ipoib" : t == "verbs";
    };
    if (std::any_of(transports.begin(), transports.end(), applies)) continue;
    std::string names;
    for (const std::string& t : transports) {
      if (!names.empty()) names += ',';
      names += t;
    }
    throw_invalid(o->get_name() + (group == "IPoIB" ? " is an " : " is a ") + group + " flag; it has no effect with --transport" +
                  (transports.size() > 1 ? "s " : " ") + names);
  }
}

void check_transport_flags(const CLI::App& app, const std::string& transport) {
  check_transport_flags(app, std::vector<std::string>{transport});
}

}  // namespace ccb
