#!/usr/bin/env bash
# Ring and tree AllReduce on a 4-host emulated cluster (tools/netns/cluster) with cables
# shaped to 2 Gbit/s and a one-way delay of 0, 1 and 5 ms per cable end (so 2x that
# host to host). This host's kernel has no netem, so the sweep runs inside the soft-RoCE
# VM's Debian kernel (tools/rxe-vm), where the emulated CPU, not the link, limits
# bandwidth. Root only. Usage: results/run-cluster-delays.sh OUTDIR [SIZES]
set -euo pipefail
out=${1:?usage: $0 OUTDIR [SIZES]}
sizes=${2:-64K,1M,16M}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
build=${BUILD:-$here/build}
mkdir -p "$out"
out=$(cd "$out" && pwd)
guest=""
for d in 0ms 1ms 5ms; do
  guest+="tools/netns/cluster up --hosts 4 --rate 2gbit --delay $d > $out/cluster-$d.txt;"
  guest+=" tools/netns/cluster run -- $build/tools/ccbench run --line-rate 2G --sizes $sizes --algo ring,tree -n 10 -w 2"
  guest+=" --json $out/delay-$d.json > $out/delay-$d.txt 2>&1; tools/netns/cluster down;"
done
echo "RXE_VM_OUT=$out tools/rxe-vm/rxe-run --timeout 1500 --mem 3G -- sh -c '$guest'" >"$out/commands.txt"
cd "$here"
RXE_VM_OUT=$out tools/rxe-vm/rxe-run --timeout 1500 --mem 3G -- sh -c "$guest"
machine_txt "$out" "guest: Debian linux-image-amd64 under qemu TCG, 2 vCPUs (tools/rxe-vm)"
python3 - "$out" <<'PY'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
print(f"{'delay':>6} {'size':>9} {'ring us':>10} {'tree us':>10} {'tree/ring':>9}")
for d in ("0ms", "1ms", "5ms"):
    rows = json.loads((out / f"delay-{d}.json").read_text())["results"]
    by = {(r["algorithm"], r["bytes"]): r["time_us"] for r in rows}
    for size in sorted({b for _, b in by}):
        ring, tree = by[("ring", size)], by[("tree", size)]
        print(f"{d:>6} {size:>9} {ring:>10.0f} {tree:>10.0f} {tree / ring:>9.2f}")
PY
