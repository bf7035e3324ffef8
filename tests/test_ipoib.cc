// IPoIB detection against fake sysfs trees (connected, datagram, enhanced, none), and
// the transport contract over a forced netdev (loopback): the data path is TCP's.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "transport/ipoib/ipoib_transport.h"
#include "transport_pair.h"

using namespace ccb;
using namespace ccb::test;
namespace fs = std::filesystem;

namespace {

// A throwaway filesystem root with just the files IPoIB detection reads.
class FakeHost {
 public:
  FakeHost() : root_(fs::temp_directory_path() / ("ccb-ipoib-" + std::to_string(getpid()) + "-" + std::to_string(next_++))) {
    fs::create_directories(root_ / "sys/class/net");
    netdev("lo", 772, 65536);
    netdev("eth0", 1, 1500);
  }
  ~FakeHost() { fs::remove_all(root_); }
  std::string root() const { return root_.string(); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text << "\n";
  }
  void netdev(const std::string& name, int type, int mtu) {
    write("sys/class/net/" + name + "/type", std::to_string(type));
    write("sys/class/net/" + name + "/mtu", std::to_string(mtu));
  }
  // An IPoIB netdev on `hca` port `port` whose rate is `rate`.
  void ipoib(const std::string& name, const std::string& mode, int mtu, const std::string& hca, int port,
             const std::string& rate) {
    netdev(name, 32, mtu);
    write("sys/class/net/" + name + "/mode", mode);
    write("sys/class/net/" + name + "/dev_port", std::to_string(port - 1));
    fs::create_directories(root_ / "sys/class/net" / name / "device/infiniband" / hca);
    write("sys/class/infiniband/" + hca + "/ports/" + std::to_string(port) + "/rate", rate);
  }

 private:
  fs::path root_;
  static inline int next_ = 0;
};

}  // namespace

TEST_CASE("IPoIB in connected mode: mode, MTU, HCA, port and the port's rate", "[ipoib]") {
  FakeHost h;
  h.ipoib("ib0", "connected", 65520, "mlx4_0", 1, "56 Gb/sec (4X FDR)");
  CHECK(ipoib_interface_names(h.root()) == std::vector<std::string>{"ib0"});
  IpoibInterface i = choose_ipoib_interface({h.root(), false}, "");
  CHECK(i.name == "ib0");
  CHECK(i.mode == "connected");
  CHECK(i.mtu == 65520);
  CHECK(i.hca == "mlx4_0");
  CHECK(i.port == 1);
  CHECK(i.rate_gbps == 56);
  CHECK_FALSE(i.enhanced);
  CHECK(i.describe() == "ib0 on mlx4_0:1, connected, mtu 65520, 56 Gb/s");
  CHECK(ipoib_warnings({h.root(), false}, i, 0).empty());
}

TEST_CASE("IPoIB in datagram mode on port 2: a warning names connected mode", "[ipoib]") {
  FakeHost h;
  h.ipoib("ib1", "datagram", 2044, "mlx4_0", 2, "40 Gb/sec (4X QDR)");
  IpoibInterface i = choose_ipoib_interface({h.root(), false}, "ib1");
  CHECK((i.mode == "datagram" && i.mtu == 2044 && i.port == 2 && i.rate_gbps == 40));
  auto w = ipoib_warnings({h.root(), false}, i, 0);
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains("datagram mode (mtu 2044)") && Catch::Contains("echo connected > /sys/class/net/ib1/mode"));
}

TEST_CASE("enhanced IPoIB (mlx5): datagram only, so no advice to switch mode", "[ipoib]") {
  FakeHost h;
  h.ipoib("ib0", "datagram", 2044, "mlx5_0", 1, "100 Gb/sec (4X EDR)");
  IpoibInterface i = read_ipoib_interface(h.root(), "ib0");
  CHECK(i.enhanced);
  CHECK_THAT(i.describe(), Catch::Contains("datagram (enhanced IPoIB), mtu 2044, 100 Gb/s"));
  auto w = ipoib_warnings({h.root(), false}, i, 0);
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains("enhanced IPoIB allows 4092"));
  h.write("sys/module/ib_ipoib/parameters/ipoib_enhanced", "N");  // loaded with ipoib_enhanced=0
  CHECK_FALSE(read_ipoib_interface(h.root(), "ib0").enhanced);
}

TEST_CASE("small socket buffer limits are flagged with the sysctl to raise", "[ipoib]") {
  FakeHost h;
  h.ipoib("ib0", "connected", 65520, "mlx4_0", 1, "56 Gb/sec (4X FDR)");
  h.write("proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456");
  h.write("proc/sys/net/ipv4/tcp_wmem", "4096\t16384\t4194304");
  h.write("proc/sys/net/core/rmem_max", "212992");
  h.write("proc/sys/net/core/wmem_max", "212992");
  IpoibInterface i = read_ipoib_interface(h.root(), "ib0");
  auto autotuned = ipoib_warnings({h.root(), false}, i, 0);
  REQUIRE(autotuned.size() == 1);
  CHECK_THAT(autotuned[0], Catch::Contains("capped at 4194304 B by net.ipv4.tcp_rmem/tcp_wmem"));
  auto fixed = ipoib_warnings({h.root(), false}, i, 8 << 20);
  REQUIRE(fixed.size() == 1);
  CHECK_THAT(fixed[0], Catch::Contains("capped at 212992 B by net.core.rmem_max/wmem_max"));
}

TEST_CASE("no IPoIB, or a non-IPoIB --iface: one line naming the fix; --ipoib-force runs anyway", "[ipoib]") {
  FakeHost h;
  CHECK(ipoib_interface_names(h.root()).empty());
  CHECK_THROWS_WITH(choose_ipoib_interface({h.root(), false}, ""),
                    Catch::Contains("no IPoIB interface on this host") && Catch::Contains("--transport tcp"));
  CHECK_THROWS_WITH(choose_ipoib_interface({h.root(), false}, "eth0"),
                    Catch::Contains("eth0 is not an IPoIB interface (its type is 1, not 32)") &&
                        Catch::Contains("--ipoib-force"));
  CHECK_THROWS_WITH(choose_ipoib_interface({h.root(), true}, "ib9"), Catch::Contains("no network interface named 'ib9'"));
  IpoibInterface forced = choose_ipoib_interface({h.root(), true}, "eth0");
  CHECK((forced.name == "eth0" && forced.mtu == 1500 && forced.hca.empty()));
  CHECK_THAT(forced.mode, Catch::Contains("not IPoIB"));
}

TEST_CASE("the rate text of sysfs", "[ipoib]") {
  CHECK(parse_ib_rate("100 Gb/sec (4X EDR)") == 100);
  CHECK(parse_ib_rate("2.5 Gb/sec (1X SDR)") == 2.5);
  CHECK(parse_ib_rate("") == 0);
  CHECK(parse_ib_rate("unknown") == 0);
}

TEST_CASE("the IPoIB transport keeps the transport contract over a forced netdev", "[ipoib]") {
  auto make = [](int rank) {
    IpoibInterface lo = choose_ipoib_interface({"/", true}, "lo");
    return std::make_unique<IpoibTransport>(rank, 7, TcpOptions{}, lo);
  };
  TransportPair p(make(0), make(1));
  CHECK(p.t0->name() == "ipoib");
  CHECK_THAT(p.t0->describe(), Catch::Contains("ipoib=[lo") && Catch::Contains("iface=lo"));
  CHECK(p.t0->link().nic == "lo");
  check_transport_contract({"ipoib over lo", [&make] { return std::make_unique<TransportPair>(make(0), make(1)); },
                            "connection to rank 1 lost"});
}

TEST_CASE("an IPoIB link reports the InfiniBand port's rate and counter, not the netdev's", "[ipoib]") {
  FakeHost h;
  h.ipoib("ib0", "connected", 65520, "mlx5_1", 1, "200 Gb/sec (4X HDR)");
  h.write("sys/class/infiniband/mlx5_1/ports/1/counters/port_xmit_data", "123");
  LinkInfo l = ipoib_link(read_ipoib_interface(h.root(), "ib0"), h.root());
  CHECK(l.nic == "ib0 (mlx5_1:1, connected)");
  CHECK(l.line_rate_gbps == 200);
  CHECK(l.tx_counter == h.root() + "/sys/class/infiniband/mlx5_1/ports/1/counters/port_xmit_data");
  CHECK(l.tx_counter_unit == 4);
}
