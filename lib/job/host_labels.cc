#include "job/host_labels.h"

#include <unistd.h>

namespace ccb {

std::vector<std::string> host_places(Bootstrap& boot, const Transport& t) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::string nic = t.link().nic;
  return boot.allgather(std::string(host) + (nic.empty() ? "" : ", nic " + nic));
}

std::vector<std::string> host_labels(Bootstrap& boot, const Transport& t) {
  std::vector<std::string> labels;
  int r = 0;
  for (const std::string& where : host_places(boot, t)) labels.push_back("rank " + std::to_string(r++) + " (host " + where + ")");
  return labels;
}

}  // namespace ccb
