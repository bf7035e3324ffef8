// Builds the transport a run asks for. Backends are known here, never in lib/algo.
#pragma once
#include <string>
#include <vector>

#include "bootstrap/host_layout.h"
#include "transport/ipoib/ipoib_interface.h"
#include "transport/tcp/tcp_options.h"
#include "transport/transport.h"
#include "transport/verbs/verbs_options.h"

namespace ccb {

struct TransportChoice {
  std::string name = "tcp";
  TcpOptions tcp;      // also IPoIB's socket engine
  IpoibOptions ipoib;
  VerbsOptions verbs;
  // Where the collectives' buffers live, which every transport of the rank registers
  // (core/memory_space.h): "host" today.
  std::string memory = "host";
};

// Every backend this build has, in the order help and errors list them.
const std::vector<std::string>& transport_names();
bool is_transport(const std::string& name);
// "tcp, shm, ipoib or verbs"
std::string transport_list();

TransportPtr make_transport(const TransportChoice& choice, int rank, uint64_t token, const std::string& advertise);

// Throws kInvalidArgument, on every rank at once, when the hosts the job found cannot be
// joined by this backend (shm across hosts), before any rank connects.
void check_transport_spans(const TransportChoice& choice, const HostLayout& layout);

}  // namespace ccb
