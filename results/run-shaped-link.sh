#!/usr/bin/env bash
# Link utilization end to end on a shaped link: two namespaces joined by a veth pair,
# each end shaped by tc tbf to RATE (tools/netns/shaped-pair), one ccbench rank in each
# (env launch), the CLI sweep and the Google Benchmark driver, then check_shaped_link.py.
# Root only. Usage: results/run-shaped-link.sh OUTDIR [RATE=2gbit] [MTU=9000]
set -euo pipefail
out=${1:?usage: $0 OUTDIR [RATE] [MTU]}
rate=${2:-2gbit}
mtu=${3:-9000}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
build=${BUILD:-$here/build}
pair="$here/tools/netns/shaped-pair"
line_rate=${rate%bit}  # tc's "2gbit" is ccbench's "2g"
mkdir -p "$out"
out=$(cd "$out" && pwd)

trap '"$pair" down' EXIT
"$pair" up --rate "$rate" --mtu "$mtu" | tee "$out/link.txt"

# run_pair NAME ARGS...: rank 0 in host a, rank 1 in host b, the same program and args.
run_pair() {
  local name=$1 port
  shift
  port=$((29700 + RANDOM % 200))
  local env=(env CCB_WORLD_SIZE=2 CCB_MASTER_ADDR=10.77.0.1 CCB_MASTER_PORT=$port CCB_TOKEN="$name")
  echo "ip netns exec ccba ${env[*]} CCB_RANK=0 $* --iface ccba0" >>"$out/commands.txt"
  echo "ip netns exec ccbb ${env[*]} CCB_RANK=1 $* --iface ccbb0" >>"$out/commands.txt"
  "$pair" exec b -- "${env[@]}" CCB_RANK=1 "$@" --iface ccbb0 >"$out/$name-rank1.txt" 2>&1 &
  local peer=$!
  "$pair" exec a -- "${env[@]}" CCB_RANK=0 "$@" --iface ccba0 >"$out/$name.txt" 2>&1
  wait "$peer"
}

{
  echo "# shaped-pair up --rate $rate --mtu $mtu, then:"
} >"$out/commands.txt"
"$pair" stats >"$out/tc-before.txt"
run_pair ccbench "$build/tools/ccbench" run --line-rate "$line_rate" --sizes 1M,16M,64M,256M --algo ring,tree \
  --json "$out/ccbench.json" --csv "$out/ccbench.csv"
run_pair bench "$build/bench/bench_collectives" --line-rate "$line_rate" --sizes 64M --collectives allreduce \
  --algo ring --iters 10 --benchmark_out="$out/bench.json" --benchmark_out_format=json
"$pair" stats >"$out/tc-after.txt"
machine_txt "$out"
python3 "$here/results/check_shaped_link.py" "$out" | tee "$out/summary.txt"
