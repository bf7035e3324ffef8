#include "runner/transport_factory.h"

#include <algorithm>

#include "core/error.h"
#include "transport/ipoib/ipoib_transport.h"
#include "transport/shm/shm_transport.h"
#include "transport/tcp/tcp_transport.h"
#include "transport/verbs/verbs_transport.h"

namespace ccb {

const std::vector<std::string>& transport_names() {
  static const std::vector<std::string> names{"tcp", "shm", "ipoib", "verbs"};
  return names;
}

bool is_transport(const std::string& name) {
  const auto& n = transport_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

std::string transport_list() {
  const auto& n = transport_names();
  std::string out;
  for (size_t i = 0; i < n.size(); ++i) out += (i == 0 ? "" : i + 1 == n.size() ? " or " : ", ") + n[i];
  return out;
}

TransportPtr make_transport(const TransportChoice& choice, int rank, uint64_t token, const std::string& advertise) {
  if (choice.name == "tcp") return std::make_unique<tcp::TcpTransport>(rank, token, choice.tcp, advertise);
  if (choice.name == "ipoib")
    return std::make_unique<IpoibTransport>(rank, token, choice.tcp, choose_ipoib_interface(choice.ipoib, choice.tcp.iface),
                                            choice.ipoib.root);
  if (choice.name == "shm") return std::make_unique<shm::ShmTransport>(rank, token);
  if (choice.name == "verbs") return std::make_unique<verbs::VerbsTransport>(rank, token, choice.verbs, advertise);
  throw_invalid("unknown transport '" + choice.name + "': use " + transport_list());
}

void check_transport_spans(const TransportChoice& choice, const HostLayout& layout) {
  if (choice.name != "shm" || layout.hosts.size() < 2) return;
  std::string hosts;
  for (const std::string& h : layout.hosts) hosts += (hosts.empty() ? "" : ", ") + h;
  throw_invalid("--transport shm joins ranks of one host, but this job's ranks run on " + std::to_string(layout.hosts.size()) +
                " hosts (" + hosts + "): use --transport tcp (or verbs) across hosts");
}

}  // namespace ccb
