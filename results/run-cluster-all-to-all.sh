#!/usr/bin/env bash
# all_to_all on the 4-host emulated cluster, cables shaped to 2 Gbit/s (root: it makes
# namespaces), under each TCP congestion control in turn, rounds interleaved, one rank
# per host, every size repeated; link% per pass from the JSON records.
#
#   results/run-cluster-all-to-all.sh OUTDIR [SIZES] [CCS] [ROUNDS]
#       (default 1M,4M,16M,64M; "cubic bbr"; 2 rounds of --repeat 3)
set -euo pipefail
out=${1:?usage: $0 OUTDIR [SIZES] [CCS] [ROUNDS]}
sizes=${2:-1M,4M,16M,64M}
ccs=${3:-cubic bbr}
rounds=${4:-2}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
cluster_bench_begin "$out" "command: results/run-cluster-all-to-all.sh $*" "cluster: 4 hosts, cables shaped to 2gbit" \
  "system congestion control: $(cat /proc/sys/net/ipv4/tcp_congestion_control)"
"$cluster" up --hosts 4 --rate 2gbit >"$out/cluster.txt"
for ((round = 1; round <= rounds; round++)); do
  for cc in $ccs; do
    cmd=("$build/tools/ccbench" run --line-rate 2G --tcp-cc "$cc" --sizes "$sizes" --collective all_to_all -n 20 -w 3
         --repeat 3 --json "$out/$cc-$round.json")
    echo "$cluster run -- ${cmd[*]}" >>"$out/commands.txt"
    "$cluster" run -- "${cmd[@]}" >"$out/$cc-$round.txt" 2>&1
  done
done
python3 - "$out" "$ccs" "$rounds" <<'PY' | tee "$out/summary.txt"
import json, os, statistics, sys
out, ccs, rounds = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
print(f"{'cc':6s} {'bytes':>9s} {'median link%':>12s}  every pass")
for cc in ccs:
    passes = {}
    for r in range(1, rounds + 1):
        for res in json.load(open(os.path.join(out, f"{cc}-{r}.json")))["results"]:
            assert res["wrong"] == 0
            passes.setdefault(res["bytes"], []).extend(p["link_util_pct"] for p in res["passes"])
    for size, v in sorted(passes.items()):
        print(f"{cc:6s} {size:9d} {statistics.median(v):12.1f}  {' '.join(f'{x:.1f}' for x in v)}")
PY
