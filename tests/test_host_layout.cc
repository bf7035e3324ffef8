// The host layout every rank learns at bootstrap: hosts told apart by key, local ranks
// in rank order, a launcher's local rank checked against it, hostile places refused.
#include <catch2/catch.hpp>

#include "bootstrap/host_layout.h"
#include "net/host_key.h"
#include "core/error.h"
#include "job/address_list.h"
#include "job/host_levels.h"
#include "job/rank_groups.h"

using namespace ccb;

namespace {

std::vector<RankPlace> two_hosts_interleaved() {
  // Ranks 0 and 2 on one host, 1 and 3 on another of the same name (two emulated hosts).
  return {{"a/1/ns1", "node", "veth0"}, {"a/1/ns2", "node", "veth1"}, {"a/1/ns1", "node", "veth0"}, {"a/1/ns2", "node", "veth1"}};
}

LaunchInfo launched_with(const char* var, int local_rank) {
  LaunchInfo info;
  info.local_rank_var = var;
  info.launcher_local_rank = local_rank;
  return info;
}

}  // namespace

TEST_CASE("layout: hosts by key in order of their lowest rank, local ranks by rank", "[layout]") {
  const HostLayout l = layout_of(two_hosts_interleaved());
  CHECK(l.hosts == std::vector<std::string>{"node", "node#2"});
  CHECK(l.host_of == std::vector<int>{0, 1, 0, 1});
  CHECK(l.local_rank_of == std::vector<int>{0, 0, 1, 1});
  CHECK(l.ranks_per_host() == 2);
  CHECK(l.same_host(0, 2));
  CHECK_FALSE(l.same_host(0, 1));
  CHECK(l.place_text(3) == "node#2, nic veth1");
  CHECK(l.ranks_on_machine_of == std::vector<int>{4, 4, 4, 4});  // one kernel (boot id 1): one machine's CPUs
}

TEST_CASE("layout: the ranks that share a machine's CPUs are counted by its boot id, across namespaces", "[layout]") {
  const HostLayout l = layout_of({{"a/1/ns1", "a", ""}, {"a/1/ns2", "a", ""}, {"b/2/ns1", "b", ""}, {"odd", "odd", ""}});
  CHECK(l.ranks_on_machine_of == std::vector<int>{2, 2, 1, 1});
  CHECK(machine_of_key("host/0f1e2d3c/net:[4026531840]") == "0f1e2d3c");
  CHECK(machine_of_key("no-slashes") == "no-slashes");
}

// --parallel's positions fill the hosts, so Megatron's TP groups (consecutive positions)
// sit within a host even when the launcher numbered the ranks round-robin.
TEST_CASE("layout: host-major order; --parallel's TP groups within a host, its DP groups across", "[layout][parallel]") {
  const HostLayout l = layout_of(two_hosts_interleaved());
  CHECK(l.host_major() == std::vector<int>{0, 2, 1, 3});
  CHECK(parallel_position(l, 2) == 1);
  CHECK(parallel_position(l, 1) == 2);
  const ParallelLayout tp2dp2{2, 1, 2};
  CHECK(groups_within_hosts(tp2dp2, GroupKind::kTensor, l));
  CHECK_FALSE(groups_within_hosts(tp2dp2, GroupKind::kData, l));
  const ParallelLayout tp4{4, 1, 1};  // 4 ranks on 2 hosts: a TP group spans them
  CHECK_FALSE(groups_within_hosts(tp4, GroupKind::kTensor, l));
  const HostLayout consecutive = layout_of({{"k1", "a", ""}, {"k1", "a", ""}, {"k2", "b", ""}, {"k2", "b", ""}});
  CHECK(consecutive.host_major() == std::vector<int>{0, 1, 2, 3});
  CHECK(groups_within_hosts(tp2dp2, GroupKind::kTensor, consecutive));
}

TEST_CASE("layout: uneven hosts have no ranks per host; one host holds every rank", "[layout]") {
  const HostLayout uneven = layout_of({{"k1", "a", ""}, {"k1", "a", ""}, {"k2", "b", ""}});
  CHECK(uneven.ranks_per_host() == 0);
  CHECK(uneven.ranks_on == std::vector<int>{2, 1});
  CHECK(uneven.place_text(2) == "b");
  const HostLayout one = layout_of({{"k", "h", "lo"}, {"k", "h", "lo"}, {"k", "h", "lo"}, {"k", "h", "lo"}});
  CHECK(one.hosts.size() == 1);
  CHECK(one.ranks_per_host() == 4);
}

TEST_CASE("layout: a launcher's local rank must agree with the hosts", "[layout]") {
  const HostLayout l = layout_of(two_hosts_interleaved());
  CHECK(check_launcher_local_rank(l, 2, LaunchInfo{}).empty());  // none said
  CHECK(check_launcher_local_rank(l, 2, launched_with("SLURM_LOCALID", 1)).empty());
  const std::string why = check_launcher_local_rank(l, 2, launched_with("LOCAL_RANK", 0));
  CHECK_THAT(why, Catch::StartsWith("LOCAL_RANK=0 but rank 2 is local rank 1 of the 2 ranks on host node"));
  CHECK_THAT(why, Catch::Contains("unset it"));
}

TEST_CASE("layout: places round-trip, and a malformed or oversized one is refused", "[layout]") {
  const RankPlace p{"h/b/n", "h", "eth0"};
  const RankPlace back = decode_place(encode_place(p));
  CHECK(back.host_key == p.host_key);
  CHECK(back.host_name == p.host_name);
  CHECK(back.nic == p.nic);
  CHECK(decode_place(encode_place({"k", "h", ""})).nic.empty());
  for (const std::string& bad : {std::string(""), std::string("k"), std::string("k\th"), std::string("\th\tn"),
                                std::string("k\th\tn\tx"), "k\th\t" + std::string(5000, 'n')})
    CHECK_THROWS_AS(decode_place(bad), Error);
  CHECK_THROWS_AS(encode_place({"k", "h\tx", ""}), Error);
}

TEST_CASE("hier's levels: a host's ranks by local rank, a rail's by host; uneven hosts refused", "[layout][hier]") {
  const HostLayout l = layout_of(two_hosts_interleaved());
  CHECK(host_members(l, 2) == std::vector<int>{0, 2});
  CHECK(rail_members(l, 2) == std::vector<int>{2, 3});
  CHECK(rail_members(l, 1) == std::vector<int>{0, 1});
  const HostLayout uneven = layout_of({{"a", "a", ""}, {"a", "a", ""}, {"b", "b", ""}});
  CHECK_THROWS_WITH(host_members(uneven, 0), Catch::Contains("the hosts hold a: 2 ranks, b: 1 rank"));
}

TEST_CASE("address lists round-trip; a peer's malformed one is refused naming it", "[layout][hier]") {
  const std::vector<std::string> in{"tcp://10.0.0.1:5", "", std::string("a:b\0c", 6)};
  CHECK(decode_address_list(encode_address_list(in), 3, 7) == in);
  for (const std::string& bad : {std::string(""), std::string("3:ab"), std::string("x:ab"), std::string(":"),
                                std::string("99999999999999999999:a"), std::string("1:a1:b1:c1:d"), std::string("1:a2:b")})
    CHECK_THROWS_WITH(decode_address_list(bad, 3, 7), Catch::Contains("rank 7 sent malformed group addresses"));
}
