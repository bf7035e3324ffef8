// The default rail: each local rank takes the active RDMA device nearest to its CPUs
// by NUMA distance, shared in turn in PCI order; on fake sysfs trees of a two-socket
// host with four NICs (DGX-style), one of them down.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "job/nic_pairing.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::test;
namespace fs = std::filesystem;

namespace {

void put(const TempDir& t, const std::string& rel, const std::string& text) {
  fs::create_directories(fs::path(t / rel).parent_path());
  std::ofstream(t / rel) << text << "\n";
}

void rdma_device(const TempDir& t, const std::string& name, const std::string& pci, int node, const std::string& state) {
  const std::string dev = "sys/devices/pci0000:00/" + pci;
  put(t, dev + "/numa_node", std::to_string(node));
  put(t, "sys/class/infiniband/" + name + "/ports/1/state", state);
  fs::create_symlink("../../../devices/pci0000:00/" + pci, t / ("sys/class/infiniband/" + name + "/device"));
}

// CPUs 0-3 on node 0 and 4-7 on node 1; two active NICs a socket, listed out of PCI
// order; a fifth on node 1 whose port is down.
void two_sockets(const TempDir& t, bool distances = true) {
  put(t, "sys/devices/system/node/node0/cpulist", "0-3");
  put(t, "sys/devices/system/node/node1/cpulist", "4-7");
  if (distances) {
    put(t, "sys/devices/system/node/node0/distance", "10 21");
    put(t, "sys/devices/system/node/node1/distance", "21 10");
  }
  rdma_device(t, "mlx5_3", "0000:91:00.0", 1, "4: ACTIVE");
  rdma_device(t, "mlx5_0", "0000:0c:00.0", 0, "4: ACTIVE");
  rdma_device(t, "mlx5_2", "0000:8a:00.0", 1, "4: ACTIVE");
  rdma_device(t, "mlx5_1", "0000:12:00.0", 0, "4: ACTIVE");
  rdma_device(t, "mlx5_4", "0000:a0:00.0", 1, "1: DOWN");
}

std::vector<std::string> names_for(const std::vector<PlacedNic>& nics, int ranks, int node, const NumaDistance& d) {
  std::vector<std::string> out;
  for (int l = 0; l < ranks; ++l) out.push_back(nics[nearest_nic(nics, l, node, d)].name);
  return out;
}

int slit(int a, int b) { return a == b ? 10 : std::abs(a - b) == 1 ? 12 : 20; }

}  // namespace

TEST_CASE("the host's active RDMA devices, in PCI order, each with its NUMA node", "[rails][numa]") {
  TempDir t;
  two_sockets(t);
  const std::vector<PlacedNic> nics = active_rdma_devices(t.path);
  REQUIRE(nics.size() == 4);  // mlx5_4's port is down
  CHECK(nics[0].name == "mlx5_0");
  CHECK(nics[1].name == "mlx5_1");
  CHECK(nics[2].name == "mlx5_2");
  CHECK(nics[3].name == "mlx5_3");
  CHECK(nics[0].numa_node == 0);
  CHECK(nics[3].numa_node == 1);
  CHECK(nics[2].pci_address == "0000:8a:00.0");
}

TEST_CASE("NUMA distances come from the nodes' rows, else 10 near and 20 far", "[rails][numa]") {
  TempDir with, without;
  two_sockets(with);
  two_sockets(without, false);
  CHECK(numa_distance(with.path, 0, 1) == 21);
  CHECK(numa_distance(with.path, 1, 1) == 10);
  CHECK(numa_distance(without.path, 0, 1) == 20);
  CHECK(numa_distance(without.path, 0, 0) == 10);
  // Directories that only look like nodes are not nodes: a row still finds its column.
  fs::create_directories(with / "sys/devices/system/node/node99999999999999999999");
  fs::create_directories(with / "sys/devices/system/node/nodex");
  fs::create_directories(with / "sys/devices/system/node/node-1");
  CHECK(numa_distance(with.path, 0, 1) == 21);
  CHECK(home_numa_node(with.path, {0, 3}) == 0);
  CHECK(home_numa_node(with.path, {4, 7}) == 1);
  CHECK(home_numa_node(with.path, {3, 4}) == -1);  // spans the sockets: unbound
  CHECK(home_numa_node(with.path, {64}) == -1);    // on no node the platform names
}

TEST_CASE("a rank bound to a socket takes that socket's NICs in turn; an unbound rank spreads over all", "[rails][numa]") {
  TempDir t;
  two_sockets(t);
  const std::vector<PlacedNic> nics = active_rdma_devices(t.path);
  auto d = [&t](int a, int b) { return numa_distance(t.path, a, b); };
  using names = std::vector<std::string>;
  CHECK(names_for(nics, 4, 1, d) == names{"mlx5_2", "mlx5_3", "mlx5_2", "mlx5_3"});
  CHECK(names_for(nics, 2, 0, d) == names{"mlx5_0", "mlx5_1"});
  CHECK(names_for(nics, 8, -1, d) == names{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
}

TEST_CASE("a node without NICs takes the nearest node's; a NIC of unknown node is the last resort", "[rails][numa]") {
  const std::vector<PlacedNic> nics = {{"far", 3, "0000:01:00.0"}, {"near", 0, "0000:02:00.0"}, {"lost", -1, "0000:03:00.0"}};
  CHECK(nics[nearest_nic(nics, 0, 1, slit)].name == "near");
  CHECK(nics[nearest_nic(nics, 5, 1, slit)].name == "near");
  const std::vector<PlacedNic> unknown_only = {{"lost", -1, ""}, {"also", -1, ""}};
  CHECK(unknown_only[nearest_nic(unknown_only, 1, 0, slit)].name == "also");
}

TEST_CASE("rank_rail: a named list wins, TCP follows its routes, verbs pairs only where there is a choice", "[rails][numa]") {
  TempDir t;
  two_sockets(t);
  TransportChoice verbs;
  verbs.name = "verbs";
  // This machine's CPUs are 0 and 1 (node 0 here), or more than the tree names (unbound):
  // either way local ranks 0 and 1 take the first two devices.
  CHECK(rank_rail(verbs, 0, t.path).verbs.device == "mlx5_0");
  CHECK(rank_rail(verbs, 1, t.path).verbs.device == "mlx5_1");
  TransportChoice listed = verbs;
  listed.verbs.device = "mlx5_3,mlx5_2";
  CHECK(rank_rail(listed, 0, t.path).verbs.device == "mlx5_3");
  TransportChoice tcp;
  CHECK(rank_rail(tcp, 1, t.path).tcp.iface.empty());
  TempDir one;
  rdma_device(one, "rxe0", "0000:00:03.0", -1, "4: ACTIVE");
  CHECK(rank_rail(verbs, 1, one.path).verbs.device.empty());  // one device: the transport opens it
}
