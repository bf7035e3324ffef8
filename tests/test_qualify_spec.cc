// Qualification specs: what a spec says, and every way one is refused, with its line.
#include <catch2/catch.hpp>
#include <filesystem>

#include "judge/qualify_spec.h"

using namespace ccb::judge;

namespace {

const char* kGood = R"(name: RoCE
transport: verbs
line_rate: 100G
battery:
  - manifest: {}
  - p2p: bw
    sizes: [1M, 8M]
    window: 32
  - p2p: lat
    sizes: [8]
  - collective: allreduce
    algo: ring
    sizes: [16M]
    iters: 20
  - soak: 10m
    sizes: [64M]
  - scan: {bw_frac: 0.9, lat_factor: 3}
rules:
  - name: RDMA at 90%
    select: {collective: p2p_bw}
    require: link_util_pct >= 90
)";

std::string with(const std::string& battery) {
  return "transport: tcp\nbattery:\n" + battery + "rules:\n  - name: r\n    require: wrong == 0\n";
}

}  // namespace

TEST_CASE("a qualification spec: its battery in order, and its rules", "[qualify]") {
  const QualifySpec s = parse_qualify_spec(kGood, "spec.yaml");
  CHECK(s.name == "RoCE");
  CHECK(s.transport == "verbs");
  CHECK(s.line_rate == "100G");
  REQUIRE(s.battery.size() == 6);
  CHECK(s.battery[0].kind == BatteryKind::kManifest);
  CHECK((s.battery[1].kind == BatteryKind::kP2p && s.battery[1].collective == "p2p_bw" && s.battery[1].window == 32));
  CHECK(s.battery[1].sizes == std::vector<uint64_t>{1 << 20, 8 << 20});
  CHECK(s.battery[1].dtype == "uint8");
  CHECK((s.battery[2].collective == "p2p_lat" && s.battery[2].window == 1));
  CHECK((s.battery[3].collective == "allreduce" && s.battery[3].algo == "ring" && s.battery[3].iters == 20));
  CHECK((s.battery[4].kind == BatteryKind::kSoak && s.battery[4].duration_s == 600 && s.battery[4].collective == "allreduce"));
  CHECK((s.battery[5].bw_frac == 0.9 && s.battery[5].lat_factor == 3));
  CHECK(s.battery[1].line == 6);
  CHECK(s.battery[4].describe() == "soak 00:10:00 allreduce 64M");
  REQUIRE(s.rules.size() == 1);
  CHECK(s.rules[0].bound.metric == Metric::kLinkUtil);
}

TEST_CASE("a bad spec is refused with its file, line, field and fix", "[qualify]") {
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {with("  - iperf: {}\n"), "spec.yaml:3:5: iperf: unknown test: an entry starts with p2p, collective, soak, scan or manifest"},
           {with("  - p2p: write\n    sizes: [1M]\n"), "p2p: 'write' is not a test: use bw, bidir or lat"},
           {with("  - scan: {bw_frac: 1.5}\n"), "bw_frac: '1.5' must be a number from 0.01 to 1"},
           {with("  - scan: {lat_factor: 0.5}\n"), "lat_factor: '0.5' must be a number from 1 to"},
           {with("  - p2p: bw\n"), "give its sizes, e.g. sizes: [1M, 16M]"},
           {with("  - p2p: bw\n    sizes: [2G]\n"), "sizes: each size must be from 1 B to 1G"},
           {with("  - p2p: bw\n    sizes: [1M]\n    window: 0\n"), "window: '0' must be a number from 1 to 4096"},
           {with("  - p2p: lat\n    sizes: [8]\n    window: 4\n"), "a latency test has one message in flight"},
           {with("  - soak: forever\n    sizes: [1M]\n"), "soak: soak 'forever' must be a length of time"},
           {with("  - collective: allreduce\n    sizes: [1M]\n    speed: 5\n"), "speed: unknown field for collective: use algo, dtype, sizes, iters"},
           {"transport: tcp\nbattery: []\nrules:\n  - name: r\n    require: wrong == 0\n", "battery: a spec lists its tests"},
           {"battery:\n  - manifest: {}\nrules:\n  - name: r\n    require: wrong == 0\n", "transport: a spec names its transport"},
           {"transport: rdma\nbattery:\n  - manifest: {}\nrules:\n  - name: r\n    require: wrong == 0\n", "'rdma': use tcp, ipoib or verbs"},
           {"transport: tcp\nbattery:\n  - manifest: {}\n", "a rule file is a map whose 'rules:' is a list"},
           {with("  - manifest: {}\n") + "  - name: bad\n    require: speed >= 3\n", "unknown metric 'speed'"},
           {"transport: tcp\nbatery: []\nrules:\n  - name: r\n    require: wrong == 0\n", "batery: unknown field"},
       }) {
    INFO(text);
    CHECK_THROWS_WITH(parse_qualify_spec(text, "spec.yaml"), Catch::Contains(says));
  }
}

TEST_CASE("the shipped specs parse", "[qualify]") {
  for (const char* name : {"roce-100g.yaml", "ipoib.yaml", "tcp.yaml"}) {
    INFO(name);
    const QualifySpec s = load_qualify_spec(std::string(CCB_SOURCE_DIR) + "/specs/" + name);
    CHECK_FALSE(s.battery.empty());
    CHECK_FALSE(s.rules.empty());
  }
}
