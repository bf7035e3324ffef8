#include "p2p_command.h"

#include "core/error.h"
#include "job/number_flags.h"

namespace ccb::cli {

void add_p2p_options(CLI::App& p2p, RunCommand& c, P2pTest& test) {
  p2p.add_option("--test", test.name, "bw (one way, --window in flight), bidir (both ways) or lat (ping-pong)")
      ->check(CLI::IsMember({"bw", "bidir", "lat"}))
      ->capture_default_str();
  p2p.add_option("-b,--minbytes", c.min_bytes, "Smallest message");
  p2p.add_option("-e,--maxbytes", c.max_bytes, "Largest message");
  p2p.add_option("-f,--stepfactor", c.step_factor, "Size multiplier between -b and -e")->check(ccb::finite_in(1, 1e6))->capture_default_str();
  p2p.add_option("--sizes", c.sizes, "Message sizes (default bw, bidir: 4K,64K,1M,8M; lat: 8,256,4K,64K)");
  p2p.add_option("--window", c.window, "bw, bidir: messages in flight each way (perftest's --tx-depth); default: bw and bidir 16, lat 1");
  p2p.add_option("--sweep", c.sweep, "The sizes once per transport setting: qps=1,2,4 (verbs) or streams=1,2,4 (tcp, ipoib)");
  p2p.add_flag("--pairs", c.pairs, "On more than 2 ranks: pairs 0-1, 2-3... run side by side, each timed");
  p2p.add_option("-n,--iters", c.iters, "Timed iterations per size (0: 1 GiB / (size x window), 5..1000)")->check(CLI::Range(0, 100000000));
  p2p.add_option("-w,--warmup", c.warmup, "Warm-up iterations per size (default iters/10, 2..20)")->check(CLI::Range(-1, 1000000));
  p2p.add_option("-c,--check", c.check, "Check the data that arrived (1) or not (0)")->check(CLI::Range(0, 1))->capture_default_str();
  p2p.add_option("--duration", c.duration, "Soak: the sizes over and over this long (90s, 30m, 8h), every message checked")->group("Soak");
  p2p.add_flag("--forever", test.forever, "Soak until Ctrl-C (SIGINT or SIGTERM), a line every --interval (perftest's --run_infinitely)")->group("Soak");
  p2p.add_option("--interval", c.interval_s, "Soak: seconds between progress lines and record rewrites")->capture_default_str()->group("Soak");
  p2p.add_option("--repeat", c.repeat, "Passes over the sizes; the JSON keeps each, and their median")->check(CLI::Range(1, 10000))->capture_default_str();
  p2p.add_option("--np", c.np, "Ranks to start on this host (local launcher)")->check(CLI::Range(1, 1024))->default_str("2");
  p2p.add_flag("--bind-cores", c.bind_cores, "Pin rank r to CPU r (local launcher)");
  p2p.add_flag("--bind-numa", c.bind_numa, "Run every rank on the CPUs of its NIC's NUMA node (any launcher)");
  p2p.add_option("--timeout", c.timeout_s, "Seconds before a silent peer is declared gone")->check(ccb::timeout_seconds())->capture_default_str();
  p2p.add_option("--spin-us", c.spin_us, "Busy-poll this long before sleeping in epoll")->check(CLI::Range(0, 1000000))->capture_default_str();
  p2p.add_flag("--debug", c.debug, "Trace each rank's connections, posts and failed requests to stderr");
  p2p.add_option("--line-rate", c.line_rate, "Link rate in bit/s for link% (100G, 2.5G); default: what the NIC reports");
  p2p.add_option("--rules", c.rules, "Judge the run by these rules at its end (YAML; exit 1 when one fails)")->group("Rules");
  p2p.add_option("--baseline", c.rules_baseline, "The baseline for rules that bound a change")->group("Rules");
  p2p.add_option("--junit", c.rules_junit, "Write the rules' verdicts as JUnit XML")->group("Rules");
  p2p.add_option("--json", c.json_path, "Write results as JSON (ccbench.result/2)")->group("Output");
  p2p.add_option("--csv", c.csv_path, "Write results as CSV")->group("Output");
  p2p.add_option("--plot", c.plot_path, "Draw bandwidth against size into this .svg or .png (gnuplot)")->group("Output");
  p2p.add_option("--socket-buffer", c.socket_buffer, "SO_SNDBUF/SO_RCVBUF size (0: kernel autotuning)")->capture_default_str()->group("TCP");
}

void apply_p2p_test(const CLI::App& p2p, const P2pTest& test, RunCommand& c) {
  if (test.forever && !c.duration.empty()) throw_invalid("--forever and --duration both set the length: give one of them");
  if (test.forever) c.duration = "30d";  // the longest a soak runs
  const bool latency = test.name == "lat";
  c.collective = "p2p_" + test.name;
  c.algos = "direct";
  c.dtype = "uint8";
  if (p2p.count("--np") == 0) c.np = 2;
  if (p2p.count("--window") == 0) c.window = latency ? 1 : 16;
  if (c.sizes.empty() && c.min_bytes.empty() && c.max_bytes.empty()) c.sizes = latency ? "8,256,4K,64K" : "4K,64K,1M,8M";
}

}  // namespace ccb::cli
