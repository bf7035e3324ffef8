#include "job/host_labels.h"

#include <unistd.h>

namespace ccb {

std::vector<std::string> host_places(Bootstrap& boot, const Transport& t) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::string nic = t.link().nic;
  return boot.allgather(std::string(host) + (nic.empty() ? "" : ", nic " + nic));
}

std::vector<std::string> labels_of(const std::vector<std::string>& places) {
  std::vector<std::string> labels;
  int r = 0;
  for (const std::string& where : places) labels.push_back("rank " + std::to_string(r++) + " (host " + where + ")");
  return labels;
}

std::vector<std::string> host_labels(Bootstrap& boot, const Transport& t) { return labels_of(host_places(boot, t)); }

}  // namespace ccb
