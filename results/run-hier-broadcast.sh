#!/usr/bin/env bash
# --algo hier Broadcast, split over every rail, against flat ring and tree on 2 emulated
# hosts of 2 ranks, every cable shaped to 2 Gbit/s, over 1 rail and over 2, in
# alternating rounds (root: it makes namespaces).
#
#   results/run-hier-broadcast.sh OUTDIR [SIZES] [ROUNDS]      (default 16M,64M and 3)
set -euo pipefail
out=${1:?usage: $0 OUTDIR [SIZES] [ROUNDS]}
sizes=${2:-16M,64M}
rounds=${3:-3}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
cluster_bench_begin "$out" "command: results/run-hier-broadcast.sh $*" "cluster: 2 hosts, 2 ranks a host, cables shaped to 2gbit, 1 or 2 rails"
for ((round = 1; round <= rounds; round++)); do
  for rails in 1 2; do
    cluster_bench_on_rails "$rails" "$out/rails$rails-round$round.txt" run --collective broadcast --algo hier,ring,tree \
      --ranks-per-host 2 --sizes "$sizes" -n 5 -w 1 --spin-us 0 --json "$out/rails$rails-round$round.json"
  done
done
PYTHONPATH="$here/results" python3 - "$out" "$rounds" <<'PY' | tee "$out/summary.txt"
import statistics, sys
from rails_rounds import rails_rows
out, rounds = sys.argv[1], int(sys.argv[2])
t = {}
for rails, r in rails_rows(out, rounds):
    t.setdefault((rails, r["algorithm"], r["bytes"]), []).append(r["time_us"])
print(f"Broadcast time_ms, medians of {rounds} rounds; hier/best: hier's time over the faster flat algorithm's")
print(f"{'rails':>5s} {'bytes':>10s} {'hier':>9s} {'ring':>9s} {'tree':>9s} {'hier/best':>9s}")
for rails in (1, 2):
    for size in sorted({s for (_, _, s) in t}):
        m = {a: statistics.median(t[(rails, a, size)]) / 1e3 for a in ("hier", "ring", "tree")}
        print(f"{rails:5d} {size:10d} {m['hier']:9.1f} {m['ring']:9.1f} {m['tree']:9.1f} {m['hier'] / min(m['ring'], m['tree']):8.2f}x")
PY
