#!/usr/bin/env bash
# Every collective on the 4-host emulated cluster, cables shaped to 2 Gbit/s (root: it
# makes namespaces). One rank per host; busbw and link% from the JSON records.
#
#   results/run-cluster-collectives.sh OUTDIR [SIZES]      (default 64K,1M,16M,64M)
set -euo pipefail
out=${1:?usage: $0 OUTDIR [SIZES]}
sizes=${2:-64K,1M,16M,64M}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
cluster_bench_begin "$out" "command: results/run-cluster-collectives.sh $*" "cluster: 4 hosts, cables shaped to 2gbit"
"$cluster" up --hosts 4 --rate 2gbit >"$out/cluster.txt"
for c in all_to_all send_recv broadcast reduce allreduce; do
  cmd=("$build/tools/ccbench" run --line-rate 2G --sizes "$sizes" --collective "$c" -n 10 -w 2 --json "$out/$c.json")
  echo "$cluster run -- ${cmd[*]}" >>"$out/commands.txt"
  "$cluster" run -- "${cmd[@]}" >"$out/$c.txt" 2>&1
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import json, sys, os
out = sys.argv[1]
print(f"{'collective':12s} {'algo':5s} {'bytes':>10s} {'time_us':>11s} {'busbw_GBps':>10s} {'link%':>6s} {'wrong':>5s}")
for c in ("all_to_all", "send_recv", "broadcast", "reduce", "allreduce"):
    for r in json.load(open(os.path.join(out, c + ".json")))["results"]:
        print(f"{c:12s} {r['algorithm']:5s} {r['bytes']:10d} {r['time_us']:11.1f} {r['busbw_gbps']:10.3f} "
              f"{r['link_util_pct'] if r['link_util_pct'] is not None else float('nan'):6.1f} {r['wrong']:5d}")
PY
