#!/usr/bin/env bash
# 8 B AllReduce on shm, 2 ranks: this build's ccbench against another ccbench binary (an
# older build, the A of an A/B) and Open MPI's vader, alternating in every round so that
# the machine's drift hits all three alike. Each figure is one process's time per call
# (the mean over 1000 calls, max over ranks), as the peer harness reports vader's.
#
#   results/run-shm-8b-ab.sh OUTDIR OTHER_CCBENCH [ROUNDS]     (default 10 rounds)
#
# Writes OUTDIR/rows.txt (series, round, us), OUTDIR/machine.txt and OUTDIR/summary.txt
# (median and min of each series, and the medians' ratios).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR OTHER_CCBENCH [ROUNDS]}"
other="${2:?usage: $0 OUTDIR OTHER_CCBENCH [ROUNDS]}"
rounds="${3:-10}"
peers="${PEERS_DIR:-$here/../shared/peers}"
ccbench="$here/build/tools/ccbench"
[ -x "$peers/run-peers.sh" ] || { echo "no peer harness at $peers (set PEERS_DIR)" >&2; exit 2; }
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
[ -x "$other" ] || { echo "$other is not an executable ccbench" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
. "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-shm-8b-ab.sh $* (this build: $ccbench)"
one_ccbench() {
  "$1" run --transport shm --np 2 --sizes 8 --algo rd --in-place -d float -o sum 2>&1 | awk '$1 == 8 { print $6 }'
}
: > "$out/rows.txt"
for r in $(seq 1 "$rounds"); do
  rm -rf "$out/work"
  PEERS_WORK="$out/work" "$peers/run-peers.sh" --no-wait --ranks 2 --sizes 8 --peers mpi-vader --out "$out/work/peers" \
    > "$out/peers.log" 2>&1 || true
  vader=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["time_us"])' "$out/work/peers/allreduce.jsonl")
  echo "vader $r $vader" >> "$out/rows.txt"
  for k in 1 2; do
    echo "this $r $(one_ccbench "$ccbench")" >> "$out/rows.txt"
    echo "other $r $(one_ccbench "$other")" >> "$out/rows.txt"
  done
done
rm -rf "$out/work"
python3 - "$out/rows.txt" <<'PY' | tee "$out/summary.txt"
import collections, statistics, sys
series = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, _, us = line.split()
    series[name].append(float(us))
med = {k: statistics.median(v) for k, v in series.items()}
print("8 B AllReduce, shm, 2 ranks, us per call (median and min over the runs)")
for k in ("vader", "this", "other"):
    print(f"  {k:6s} median {med[k]:.3f}  min {min(series[k]):.3f}  runs {len(series[k])}")
print(f"  this / other {med['this'] / med['other']:.2f}   this / vader {med['this'] / med['vader']:.2f}")
PY
