// Which host a process runs on, as ranks must tell hosts apart: two emulated hosts
// (tools/netns/cluster) share a kernel and may share a name, but not a network
// namespace; two real hosts of one name differ in their boot id.
#pragma once
#include <string>

namespace ccb {

// "<hostname>/<boot id prefix>/<net namespace>", with no spaces: equal keys share a host
// (its memory, its abstract Unix sockets and its NICs).
std::string host_key();
// The kernel part of a key (its boot id): hosts of one machine share its CPUs, as the
// emulated hosts do. The whole key when it has no such part.
std::string machine_of_key(const std::string& key);
// The host's name as people read it.
std::string host_name();

}  // namespace ccb
