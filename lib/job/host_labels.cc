#include "job/host_labels.h"

namespace ccb {

std::vector<std::string> host_places(const HostLayout& layout) {
  std::vector<std::string> places;
  for (int r = 0; r < layout.ranks(); ++r) places.push_back(layout.place_text(r));
  return places;
}

std::vector<std::string> labels_of(const std::vector<std::string>& places) {
  std::vector<std::string> labels;
  int r = 0;
  for (const std::string& where : places) labels.push_back("rank " + std::to_string(r++) + " (host " + where + ")");
  return labels;
}

std::vector<std::string> host_labels(const HostLayout& layout) { return labels_of(host_places(layout)); }

}  // namespace ccb
