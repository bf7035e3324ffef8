#!/usr/bin/env bash
# Small-message AllReduce latency: ccbench's algorithms and --algo auto beside Open MPI
# and Gloo over loopback TCP, 2 and 4 ranks, 8 B to 64 KiB, float32 sum, in place, in one
# session with the series alternating by round so that machine drift hits them alike.
#
#   results/run-latency-vs-peers.sh OUTDIR [ROUNDS]      (default 3 rounds)
#
# Needs the peer harness's packages (libgloo-dev, Open MPI).
# Writes OUTDIR/peers-N/ (the peer harness's results), OUTDIR/ccbench-N-{algos,auto}-R.json
# (the records the summary reads), OUTDIR/machine.txt and OUTDIR/summary.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [ROUNDS]}"
rounds="${2:-3}"
peers="${PEERS_DIR:-$here/../shared/peers}"
ccbench="$here/build/tools/ccbench"
sizes="8,64,512,4K,32K,64K"
[ -x "$peers/run-peers.sh" ] || { echo "no peer harness at $peers (set PEERS_DIR)" >&2; exit 2; }
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
. "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-latency-vs-peers.sh $* (sizes $sizes, ranks 2 and 4)"
for r in $(seq 1 "$rounds"); do
  echo "== round $r: peers" >&2
  PEERS_WORK="$out/work" "$peers/run-peers.sh" --no-wait --ranks "2 4" --sizes "$sizes" \
      --peers mpi-tcp,gloo-tcp --out "$out/peers-$r" > "$out/peers-$r.log" 2>&1 || true
  for np in 2 4; do
    echo "== round $r: ccbench, $np ranks" >&2
    "$ccbench" run --np "$np" --sizes "$sizes" --algo ring,tree,rd --in-place -n 2000 \
      --json "$out/ccbench-$r-algos-$np.json" > "$out/ccbench-$r-algos-$np.txt" 2>&1
    "$ccbench" run --np "$np" --sizes "$sizes" --algo auto --in-place -n 2000 \
      --json "$out/ccbench-$r-auto-$np.json" > "$out/ccbench-$r-auto-$np.txt" 2>&1
  done
done
rm -rf "$out/work"
python3 "$here/results/summarize_latency.py" "$out" | tee "$out/summary.txt"
