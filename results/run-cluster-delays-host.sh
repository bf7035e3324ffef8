#!/usr/bin/env bash
# Ring and tree AllReduce on a 4-host emulated cluster (tools/netns/cluster) on this
# host's own kernel: cables at 2 Gbit/s (tbf) and a one-way delay of 0, 1 and 5 ms per
# cable end (2x that host to host, RTT 4x), kept by ccb-delay-queue because this kernel
# has no netem. TCP with 1 and 4 streams per peer, cubic; plus bbr (this machine's
# default congestion control) at 1 ms. Root only.
# Usage: results/run-cluster-delays-host.sh OUTDIR [SIZES]
set -euo pipefail
out=${1:?usage: $0 OUTDIR [SIZES]}
sizes=${2:-64K,1M,16M,64M}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
build=${BUILD:-$here/build}
cluster="$here/tools/netns/cluster"
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/commands.txt"
trap '"$cluster" down' EXIT
run() {  # run DELAY CC STREAMS
  local d=$1 cc=$2 s=$3 name="delay-$1-$2-s$3"
  local cmd=("$build/tools/ccbench" run --line-rate 2G --sizes "$sizes" --algo ring,tree -n 10 -w 2
             --tcp-cc "$cc" --tcp-streams "$s" --json "$out/$name.json")
  echo "$cluster up --hosts 4 --rate 2gbit --delay $d; $cluster run -- ${cmd[*]}" >>"$out/commands.txt"
  "$cluster" up --hosts 4 --rate 2gbit --delay "$d" >"$out/$name.txt"
  "$cluster" run -- "${cmd[@]}" >>"$out/$name.txt" 2>&1
  "$cluster" down
}
for d in 0ms 1ms 5ms; do
  for s in 1 4; do run "$d" cubic "$s"; done
done
run 1ms bbr 1
machine_txt "$out" "host kernel, no netem: delay by ccb-delay-queue (NFQUEUE), rate by tbf; 4 ranks on 2 cores"
/usr/bin/python3 "$here/results/summarize_cluster_delays.py" "$out" | tee "$out/summary.txt"
