#!/usr/bin/env bash
# --algo hier against the flat AllReduce algorithms (ring, tree, rd) on 2 emulated hosts
# of 2 ranks, every cable shaped to 2 Gbit/s, over 1 rail and over 2, 4 KiB to 16 MiB, in
# alternating rounds (root: it makes namespaces). What `--algo auto` should choose when a
# job has several ranks on each of several hosts.
#
#   results/run-hier-vs-flat.sh OUTDIR [ROUNDS]      (default 3)
set -euo pipefail
out=${1:?usage: $0 OUTDIR [ROUNDS]}
rounds=${2:-3}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
cluster_bench_begin "$out" "command: results/run-hier-vs-flat.sh $*" "cluster: 2 hosts, 2 ranks a host, cables shaped to 2gbit, 1 or 2 rails"
for ((round = 1; round <= rounds; round++)); do
  for rails in 1 2; do
    cluster_bench_on_rails "$rails" "$out/rails$rails-round$round.txt" run --algo ring,tree,rd,hier --ranks-per-host 2 \
      -b 4K -e 16M -f 4 -n 10 -w 2 --spin-us 0 --json "$out/rails$rails-round$round.json"
  done
done
PYTHONPATH="$here/results" python3 - "$out" "$rounds" <<'PY' | tee "$out/summary.txt"
import statistics, sys
from rails_rounds import rails_rows
out, rounds = sys.argv[1], int(sys.argv[2])
t = {}
for rails, r in rails_rows(out, rounds):
    t.setdefault((rails, r["algorithm"], r["bytes"]), []).append(r["time_us"])
algos = ("ring", "tree", "rd", "hier")
for rails in (1, 2):
    print(f"AllReduce, 2 hosts x 2 ranks, {rails} rail(s) at 2 Gbit/s: median time (us) over {rounds} rounds")
    print(f"{'bytes':>10s} " + " ".join(f"{a:>10s}" for a in algos) + f" {'best':>5s} {'hier/best flat':>15s}")
    for b in sorted({k[2] for k in t if k[0] == rails}):
        med = {a: statistics.median(t[(rails, a, b)]) for a in algos}
        flat = min(med[a] for a in algos[:3])
        best = min(med, key=med.get)
        print(f"{b:10d} " + " ".join(f"{med[a]:10.1f}" for a in algos) + f" {best:>5s} {med['hier'] / flat:15.2f}")
    print()
PY
