// Which host a process runs on, as ranks must tell hosts apart: two emulated hosts
// (tools/netns/cluster) share a kernel and may share a name, but not a network
// namespace; two real hosts of one name differ in their boot id.
#pragma once
#include <string>

namespace ccb {

// "<hostname>/<boot id prefix>/<net namespace>", with no spaces: equal keys share a host
// (its memory, its abstract Unix sockets and its NICs).
std::string host_key();
// The host's name as people read it.
std::string host_name();

}  // namespace ccb
