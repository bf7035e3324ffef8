#!/usr/bin/env bash
# Measures ccbench's TCP AllReduce beside OpenMPI and Gloo on this host, in one session,
# alternating rounds so machine drift hits every series alike.
#
#   results/run-tcp-vs-peers.sh OUTDIR [ROUNDS]      (default 3 rounds)
#
# The peers come from the peer harness shipped with the project's workspace
# (PEERS_DIR, default ../shared/peers beside the checkout); ccbench runs the same
# configuration they do: 2 ranks, float32 sum, in place, loopback TCP.
# Writes OUTDIR/peers-N/ (the harness's own results), OUTDIR/ccbench-N.json (the record the
# summary reads) and .txt (what it printed), and
# OUTDIR/summary.txt (medians over rounds, and ccbench / best peer).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [ROUNDS]}"
rounds="${2:-3}"
peers="${PEERS_DIR:-$here/../shared/peers}"
ccbench="$here/build/tools/ccbench"
sizes="8,1M,25M,64M"
[ -x "$peers/run-peers.sh" ] || { echo "no peer harness at $peers (set PEERS_DIR)" >&2; exit 2; }
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -n) kernel $(uname -r); $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "ccbench: $(git -C "$here" rev-parse --short HEAD) $("$ccbench" --version)"
  echo "command: results/run-tcp-vs-peers.sh $* (sizes $sizes)"
} > "$out/machine.txt"
for r in $(seq 1 "$rounds"); do
  echo "== round $r: peers" >&2
  PEERS_WORK="$out/work" "$peers/run-peers.sh" --quick --no-wait --sizes "$sizes" \
      --peers mpi-tcp,gloo-tcp,iperf3 --out "$out/peers-$r" > "$out/peers-$r.log" 2>&1
  echo "== round $r: ccbench" >&2
  "$ccbench" run --np 2 --sizes "$sizes" --algo ring,tree --in-place -d float -o sum --json "$out/ccbench-$r.json" \
    > "$out/ccbench-$r.txt" 2>&1
done
rm -rf "$out/work"
python3 "$here/results/summarize_vs_peers.py" "$out" | tee "$out/summary.txt"
