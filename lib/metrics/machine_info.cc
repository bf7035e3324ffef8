#include "metrics/machine_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>

namespace ccb {

// The value after the first line of `path` that starts with `key`, trimmed of quotes.
static std::string field_of(const std::string& path, const std::string& key, char sep) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    auto pos = line.find(sep);
    if (pos == std::string::npos) continue;
    std::string v = line.substr(pos + 1);
    v.erase(0, v.find_first_not_of(" \t\""));
    while (!v.empty() && (v.back() == '"' || v.back() == ' ')) v.pop_back();
    return v;
  }
  return "";
}

MachineInfo probe_machine() {
  MachineInfo m;
  utsname u{};
  if (uname(&u) == 0) {
    m.host = u.nodename;
    m.kernel = u.release;
  }
  m.cpu_model = field_of("/proc/cpuinfo", "model name", ':');
  m.cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  m.os = field_of("/etc/os-release", "PRETTY_NAME", '=');
  return m;
}

}  // namespace ccb
