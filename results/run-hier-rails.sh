#!/usr/bin/env bash
# --algo hier AllReduce on 2 emulated hosts of 2 ranks, every cable shaped to 2 Gbit/s,
# over 1 rail (both local ranks share one cable) and over 2 (a cable each), in
# alternating rounds so drift on this noisy machine hits both alike (root: it makes
# namespaces). The issue's target: 2 rails at least 1.8x the busbw of 1 rail at 64 MiB.
#
#   results/run-hier-rails.sh OUTDIR [SIZES] [ROUNDS]      (default 16M,64M and 3)
set -euo pipefail
out=${1:?usage: $0 OUTDIR [SIZES] [ROUNDS]}
sizes=${2:-16M,64M}
rounds=${3:-3}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
cluster_bench_begin "$out" "command: results/run-hier-rails.sh $*" "cluster: 2 hosts, 2 ranks a host, cables shaped to 2gbit, 1 or 2 rails"
for ((round = 1; round <= rounds; round++)); do
  for rails in 1 2; do
    cluster_bench_on_rails "$rails" "$out/rails$rails-round$round.txt" run --algo hier --ranks-per-host 2 --sizes "$sizes" \
      -d int32 -n 5 -w 1 --spin-us 0 --line-rate 2G --json "$out/rails$rails-round$round.json"
  done
done
PYTHONPATH="$here/results" python3 - "$out" "$rounds" <<'PY' | tee "$out/summary.txt"
import statistics, sys
from rails_rounds import rails_rows
out, rounds = sys.argv[1], int(sys.argv[2])
busbw, legs = {}, {}
for rails, r in rails_rows(out, rounds):
    busbw.setdefault((rails, r["bytes"]), []).append(r["busbw_gbps"])
    legs.setdefault((rails, r["bytes"]), []).append(r["legs_us"]["inter"])
print(f"{'bytes':>10s} {'1 rail GB/s':>12s} {'2 rails GB/s':>13s} {'ratio':>6s}  {'inter leg us (1 / 2 rails)':>28s}   (medians of {rounds} rounds)")
for size in sorted({s for _, s in busbw}):
    one, two = statistics.median(busbw[(1, size)]), statistics.median(busbw[(2, size)])
    l1, l2 = statistics.median(legs[(1, size)]), statistics.median(legs[(2, size)])
    print(f"{size:10d} {one:12.3f} {two:13.3f} {two / one:6.2f}  {l1:13.0f} / {l2:<13.0f}")
PY
