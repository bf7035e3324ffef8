#include "job/nic_pairing.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "core/error.h"
#include "job/rails.h"
#include "metrics/host_manifest.h"

namespace fs = std::filesystem;

namespace ccb {
namespace {

constexpr int kLocal = 10, kRemote = 20, kUnknown = 255;

bool has_active_port(const fs::path& device) {
  std::error_code ec;
  for (const auto& port : fs::directory_iterator(device / "ports", ec)) {
    std::ifstream in(port.path() / "state");
    std::string state;
    std::getline(in, state);
    if (state.find("ACTIVE") != std::string::npos) return true;
  }
  return false;
}

std::vector<int> node_ids(const std::string& root) {
  std::vector<int> ids;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(root) / "sys/devices/system/node", ec)) {
    // "node<N>": anything else, or a number that does not fit, is not a node.
    const std::string n = e.path().filename().string();
    int id = -1;
    const char* end = n.data() + n.size();
    if (n.starts_with("node") && n.size() > 4) {
      const auto [at, err] = std::from_chars(n.data() + 4, end, id);
      if (err == std::errc() && at == end && id >= 0) ids.push_back(id);
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

size_t nearest_nic(const std::vector<PlacedNic>& nics, int local_rank, int rank_node, const NumaDistance& distance) {
  if (nics.empty()) throw_invalid("no RDMA device to pair local rank " + std::to_string(local_rank) + " with");
  std::vector<int> far;  // each device's distance, read once
  for (const PlacedNic& n : nics)
    far.push_back(rank_node < 0 ? 0  // an unbound rank is equally near to every device
                  : n.numa_node < 0 ? kUnknown : distance(rank_node, n.numa_node));
  const int best = *std::min_element(far.begin(), far.end());
  std::vector<size_t> nearest;
  for (size_t i = 0; i < nics.size(); ++i)
    if (far[i] == best) nearest.push_back(i);
  return nearest.at(static_cast<size_t>(std::max(local_rank, 0)) % nearest.size());
}

std::vector<PlacedNic> active_rdma_devices(const std::string& root) {
  std::vector<PlacedNic> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(root) / "sys/class/infiniband", ec)) {
    if (!has_active_port(e.path())) continue;
    auto no_pfc = [](const std::string&) { return -1; };  // PFC is not what pairs
    const NicManifest m = read_nic_manifest(root, e.path().filename().string(), no_pfc);
    out.push_back({m.name, m.numa_node, m.pci_address});
  }
  std::sort(out.begin(), out.end(), [](const PlacedNic& a, const PlacedNic& b) {
    return std::tie(a.pci_address, a.name) < std::tie(b.pci_address, b.name);
  });
  return out;
}

int numa_distance(const std::string& root, int from, int to) {
  const std::vector<int> ids = node_ids(root);
  const auto column = std::find(ids.begin(), ids.end(), to);
  std::ifstream in(fs::path(root) / "sys/devices/system/node" / ("node" + std::to_string(from)) / "distance");
  std::vector<int> row;
  for (int d; in >> d;) row.push_back(d);
  const auto at = static_cast<size_t>(column - ids.begin());
  if (column != ids.end() && at < row.size() && row[at] > 0) return row[at];
  return from == to ? kLocal : kRemote;
}

int home_numa_node(const std::string& root, const std::vector<int>& cpus) {
  int home = -1;
  for (int cpu : cpus) {
    const int node = numa_node_of_cpu(root, cpu);
    if (node < 0 || (home >= 0 && node != home)) return -1;
    home = node;
  }
  return home;
}

TransportChoice rank_rail(const TransportChoice& t, int local_rank, const std::string& root) {
  if (!rails_of(t).empty() || t.name != "verbs") return on_rail(t, local_rank);
  const std::vector<PlacedNic> nics = active_rdma_devices(root);
  if (nics.size() < 2) return t;  // the transport opens the one there is, or names why not
  const int node = home_numa_node(root, allowed_cpus());
  TransportChoice paired = t;
  auto distance = [&root](int a, int b) { return numa_distance(root, a, b); };
  paired.verbs.device = nics[nearest_nic(nics, local_rank, node, distance)].name;
  return paired;
}

}  // namespace ccb
