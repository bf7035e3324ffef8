// Rails: a list of NICs in --iface or --ib-dev, one per local rank, shared in turn when
// there are fewer; hostile lists refused by name; the layout shows which rank drives
// which NIC, and each NIC's bytes are counted once.
#include <catch2/catch.hpp>

#include "bootstrap/host_layout.h"
#include "core/error.h"
#include "job/rails.h"
#include "metrics/link_utilization.h"

using namespace ccb;

namespace {

TransportChoice tcp_on(const std::string& iface) {
  TransportChoice t;
  t.tcp.iface = iface;
  return t;
}

std::string refusal(const std::string& list) {
  try {
    rail_names(list, "--iface", 15);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("rails: a list in --iface or --ib-dev, local rank L on rail L mod R", "[rails]") {
  CHECK(rail_names("", "--iface", 15).empty());
  CHECK(rail_names("eth1", "--iface", 15) == std::vector<std::string>{"eth1"});
  CHECK(rails_of(tcp_on("eth1,eth2")) == std::vector<std::string>{"eth1", "eth2"});
  const TransportChoice t = tcp_on("eth1,eth2");
  CHECK(on_rail(t, 0).tcp.iface == "eth1");
  CHECK(on_rail(t, 1).tcp.iface == "eth2");
  CHECK(on_rail(t, 3).tcp.iface == "eth2");  // fewer rails than ranks: shared in turn
  CHECK(on_rail(tcp_on("eth1"), 5).tcp.iface == "eth1");
  REQUIRE(each_rail(t).size() == 2);
  CHECK(each_rail(t)[1].tcp.iface == "eth2");

  TransportChoice verbs;
  verbs.name = "verbs";
  verbs.verbs.device = "mlx5_0,mlx5_1,mlx5_2";
  CHECK(on_rail(verbs, 4).verbs.device == "mlx5_1");
  TransportChoice shm;
  shm.name = "shm";
  CHECK(rails_of(shm).empty());
  CHECK(each_rail(shm).size() == 1);
}

TEST_CASE("rails: an empty name, a name twice, an overlong name or too many are refused by name", "[rails][errors]") {
  CHECK_THAT(refusal("eth1,,eth2"), Catch::Contains("--iface eth1,,eth2: an empty name"));
  CHECK_THAT(refusal("eth1,"), Catch::Contains("an empty name"));
  CHECK_THAT(refusal("eth1,eth1"), Catch::Contains("eth1 is named twice"));
  CHECK_THAT(refusal("a23456789012345678"), Catch::Contains("longer than a device name can be (15 characters)"));
  std::string many;
  for (size_t i = 0; i <= kMaxRails; ++i) many += (i ? ",e" : "e") + std::to_string(i);
  CHECK_THAT(refusal(many), Catch::Contains("more than 32 rails"));
}

TEST_CASE("rails: the layout names each rank's NIC; rails_text only when a host drives two", "[rails][layout]") {
  const HostLayout one_nic = layout_of({{"k1", "a", "eth0"}, {"k1", "a", "eth0"}});
  CHECK(one_nic.rails_text().empty());
  CHECK(one_nic.nics_on_host_of(1) == std::vector<std::string>{"eth0"});
  const HostLayout rails = layout_of({{"k1", "a", "e0"}, {"k1", "a", "e1"}, {"k2", "b", "e0"}, {"k2", "b", "e1"}});
  CHECK(rails.nics_on_host_of(2) == std::vector<std::string>{"e0", "e1"});
  CHECK(rails.rails_text() == "a: rank 0 e0, rank 1 e1; b: rank 2 e0, rank 3 e1");
}

TEST_CASE("rails: each NIC's bytes once, by the lowest rank that read its counter", "[rails][metrics]") {
  // Ranks 0 and 2 share one counter (one NIC); ranks 1 and 3 each have their own.
  const auto rate = combine_counters({{"h/a", 100, 1}, {"h/b", 200, 1}, {"h/a", 100, 1}, {"g/b", 300, 1}});
  REQUIRE(rate);
  CHECK(rate->bytes == 600);
  CHECK(rate->per_counter == std::vector<std::pair<int, uint64_t>>{{0, 100}, {1, 200}, {3, 300}});
}
