// What a result was measured on, read from the system, never from the environment
// wholesale (secrets live there).
#pragma once
#include <string>

namespace ccb {

struct MachineInfo {
  std::string host;
  std::string cpu_model;
  int cpus = 0;          // online CPUs
  std::string kernel;    // uname -r
  std::string os;        // /etc/os-release PRETTY_NAME
};

MachineInfo probe_machine();

}  // namespace ccb
