#!/usr/bin/env bash
# The same AllReduce sweep on the 4-host emulated cluster (2 Gbit/s cables) started by
# each launcher: ccbench's env launch (`cluster run`), Slurm (`cluster srun -N 4
# --ntasks-per-node=1`, a real slurmd per host) and Open MPI (`cluster mpirun`), three
# rounds, the launchers taking turns in each, so drift hits all three alike.
#   results/run-cluster-launchers.sh OUTDIR [CCBENCH]        (root)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [CCBENCH]}"
ccbench="${2:-$here/build/tools/ccbench}" cluster="$here/tools/netns/cluster"
mkdir -p "$out/raw"
out="$(cd "$out" && pwd)"
source "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-cluster-launchers.sh $*" "$("$ccbench" --version)" \
  "cluster: 4 hosts, tbf 2gbit per cable end, MTU 9000, one rank per host, --spin-us 0 ($(nproc) cores)"
trap '"$cluster" slurm down >/dev/null 2>&1; "$cluster" down >/dev/null 2>&1' EXIT
"$cluster" up --hosts 4 --rate 2gbit > "$out/raw/cluster.txt"
"$cluster" slurm up >> "$out/raw/cluster.txt"
sweep=(run --sizes 1M,16M,64M -n 10 -w 2 --algo ring --spin-us 0 --line-rate 2G)
for round in 1 2 3; do
  "$cluster" run -- "$ccbench" "${sweep[@]}" --json "$out/raw/run-$round.json" > "$out/raw/run-$round.txt" 2>&1
  "$cluster" srun -- -N 4 --ntasks-per-node=1 "$ccbench" "${sweep[@]}" --json "$out/raw/srun-$round.json" \
    > "$out/raw/srun-$round.txt" 2>&1
  "$cluster" mpirun -- "$ccbench" "${sweep[@]}" --json "$out/raw/mpirun-$round.json" > "$out/raw/mpirun-$round.txt" 2>&1
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import json, statistics, sys
out = sys.argv[1]
busbw = {}
for launcher in ("run", "srun", "mpirun"):
    for r in (1, 2, 3):
        d = json.load(open(f"{out}/raw/{launcher}-{r}.json"))
        assert d["complete"], (launcher, r)
        for row in d["results"]:
            busbw.setdefault((launcher, row["bytes"]), []).append(row["busbw_gbps"])
print("# busbw GB/s, median of 3 rounds; ratio against `cluster run` (env launch)")
print(f"{'size':>10} {'cluster run':>12} {'srun':>8} {'ratio':>6} {'mpirun':>8} {'ratio':>6}")
for size in sorted({s for _, s in busbw}):
    base = statistics.median(busbw[("run", size)])
    s = statistics.median(busbw[("srun", size)])
    m = statistics.median(busbw[("mpirun", size)])
    print(f"{size:>10} {base:>12.4f} {s:>8.4f} {s / base:>6.3f} {m:>8.4f} {m / base:>6.3f}")
PY
