#include "runner/transport_factory.h"

#include "core/error.h"
#include "transport/ipoib/ipoib_transport.h"
#include "transport/tcp/tcp_transport.h"
#include "transport/verbs/verbs_transport.h"

namespace ccb {

TransportPtr make_transport(const TransportChoice& choice, int rank, uint64_t token, const std::string& advertise) {
  if (choice.name == "tcp") return std::make_unique<tcp::TcpTransport>(rank, token, choice.tcp, advertise);
  if (choice.name == "ipoib")
    return std::make_unique<IpoibTransport>(rank, token, choice.tcp, choose_ipoib_interface(choice.ipoib, choice.tcp.iface),
                                            choice.ipoib.root);
  if (choice.name == "verbs") return std::make_unique<verbs::VerbsTransport>(rank, token, choice.verbs, advertise);
  throw_invalid("unknown transport '" + choice.name + "': this build has tcp, ipoib and verbs");
}

}  // namespace ccb
