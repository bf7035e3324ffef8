#!/usr/bin/env bash
# NIC qualification on the 4-host emulated cluster (2 Gbit/s cables), three scenarios:
# host 2's cable at 1200 Mbit/s (60%), equal cables, and 5 ms held on what host 1
# receives. Each runs ccbench scan (JSON and heatmap), run --algo ring --hops (16 MiB)
# and qualify --spec tests/fixtures/qualify-cluster.yaml (report, JUnit).
#   results/run-cluster-qualify.sh OUTDIR        (root: namespaces and tc)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR}"
ccbench="$here/build/tools/ccbench" cluster="$here/tools/netns/cluster"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
source "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-cluster-qualify.sh $*" "$("$ccbench" --version)" \
  "cluster: 4 hosts, tbf 2gbit per cable end, MTU 9000, one rank per host, --spin-us 0 (4 ranks on $(nproc) cores)"
trap '"$cluster" down' EXIT
scenario() {
  local name=$1; shift
  mkdir -p "$out/$name"
  "$cluster" up --hosts 4 --rate 2gbit "$@" > "$out/$name/cluster.txt"
  "$cluster" run -- "$ccbench" scan --spin-us 0 --json "$out/$name/scan.json" --plot "$out/$name/scan.svg" \
    > "$out/$name/scan.txt" 2>&1
  "$cluster" run -- "$ccbench" run --algo ring --sizes 16M -n 10 --hops --spin-us 0 --json "$out/$name/hops.json" \
    > "$out/$name/hops.txt" 2>&1
  "$cluster" run -- "$ccbench" qualify --spec "$here/tests/fixtures/qualify-cluster.yaml" --spin-us 0 \
    --json "$out/$name/qualify.json" --junit "$out/$name/qualify.xml" --report "$out/$name/report" \
    > "$out/$name/qualify.txt" 2>&1
  { echo "== $name ($*)"; grep -h -E "^scan:|slowest hop|^qualify:|^FAIL" "$out/$name/scan.txt" "$out/$name/hops.txt" \
      "$out/$name/qualify.txt"; } | tee -a "$out/summary.txt"
}
: > "$out/summary.txt"
scenario slow-host --host-rate 2=1200mbit
scenario equal
scenario delayed-host --host-delay 1=5ms
