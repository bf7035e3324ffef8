#!/usr/bin/env bash
# One host: ccbench's shared-memory AllReduce beside Open MPI's vader (its shared-memory
# BTL, the number a user compares against) and both over loopback TCP, at 2 and 4 ranks,
# 8 B and 64 KiB to 64 MiB, float32 sum, in place, in one session with the series
# alternating by round so that machine drift hits them alike.
#
#   results/run-shm-vs-vader.sh OUTDIR [ROUNDS]      (default 3 rounds)
#
# Writes OUTDIR/peers-N/ (the peer harness's results), OUTDIR/ccbench-N-{shm,tcp}-R.json
# (the records the summary reads), OUTDIR/machine.txt and OUTDIR/summary.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [ROUNDS]}"
rounds="${2:-3}"
peers="${PEERS_DIR:-$here/../shared/peers}"
ccbench="$here/build/tools/ccbench"
sizes="8,64K,256K,1M,4M,16M,64M"
[ -x "$peers/run-peers.sh" ] || { echo "no peer harness at $peers (set PEERS_DIR)" >&2; exit 2; }
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
. "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-shm-vs-vader.sh $* (sizes $sizes, ranks 2 and 4)"
for r in $(seq 1 "$rounds"); do
  echo "== round $r: peers" >&2
  PEERS_WORK="$out/work" "$peers/run-peers.sh" --no-wait --ranks "2 4" --sizes "$sizes" \
      --peers mpi-vader,mpi-tcp --out "$out/peers-$r" > "$out/peers-$r.log" 2>&1 || true
  for np in 2 4; do
    for transport in shm tcp; do
      echo "== round $r: ccbench $transport, $np ranks" >&2
      "$ccbench" run --transport "$transport" --np "$np" --sizes "$sizes" --algo auto --in-place -d float -o sum \
        --json "$out/ccbench-$r-$transport-$np.json" > "$out/ccbench-$r-$transport-$np.txt" 2>&1
    done
  done
done
rm -rf "$out/work"
python3 "$here/results/summarize_shm.py" "$out" | tee "$out/summary.txt"
