// A qualification spec (ccbench qualify --spec): the battery to run and the rules that
// judge it, in one YAML file. The rules are the judging issue's (judge/rules.h), so
// thresholds read as anywhere else: a fraction of the line rate is link_util_pct.
//
//   name: RoCE at 100G
//   transport: verbs                 # tcp, ipoib or verbs; the run's --transport must agree
//   line_rate: 100G                  # optional: what link_util_pct divides by
//   battery:
//     - p2p: bw                      # bw, bidir or lat, between ranks 0-1 (pairs on more)
//       sizes: [1M, 8M]
//       window: 16
//     - collective: allreduce
//       algo: ring                   # default auto
//       sizes: [1M, 16M]
//     - soak: 30s                    # every call checked
//       collective: allreduce
//       sizes: [16M]
//     - scan: {bw_frac: 0.93, lat_factor: 2.1}   # when there are several hosts
//     - manifest: {}                 # the host manifest's warnings fail it
//   rules:
//     - name: p2p bandwidth at 90% of the port
//       select: {collective: p2p_bw}
//       require: link_util_pct >= 90
//
// Every error names the file, line and column, the field, and what to write instead.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "judge/rules.h"

namespace ccb::judge {

enum class BatteryKind { kP2p, kCollective, kSoak, kScan, kManifest };

struct BatteryItem {
  BatteryKind kind = BatteryKind::kManifest;
  int line = 0;                    // where it is in the spec (1-based)
  std::string collective;          // p2p: p2p_bw, p2p_bidir or p2p_lat
  std::string algo = "auto";
  std::string dtype = "float";     // p2p: uint8
  std::vector<uint64_t> sizes;
  int window = 16;                 // p2p bw and bidir
  int iters = 0;                   // 0: the runner's rule
  double duration_s = 0;           // soak
  double bw_frac = 0.93, lat_factor = 2.1;  // scan
  bool allow_warnings = false;     // manifest
  std::string describe() const;    // "p2p_bw 1M,8M window 16", "soak 30s allreduce 16M"
};

struct QualifySpec {
  std::string name, transport, line_rate;
  std::vector<BatteryItem> battery;
  std::vector<Rule> rules;
};

QualifySpec parse_qualify_spec(const std::string& yaml, const std::string& source);
QualifySpec load_qualify_spec(const std::string& path);

}  // namespace ccb::judge
