#!/usr/bin/env bash
# The rendezvous store's scale (issue 26): one bootstrap of N light simulated ranks
# (hello, an all-gather of a transport address, a barrier) for N = 64..4096, alone and
# beside 1,000 stalled connections, 5 repetitions of 3 each; then a 4-rank ccbench job
# started by hand, alone and beside 1,000 stalled connections (the cli_tests case that
# prints both), 5 times. Plots the bootstrap time against N with n and n log n guides.
# Usage: results/run-store-scale.sh OUTDIR      (needs build/ and gnuplot)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/.."
out=${1:?usage: run-store-scale.sh OUTDIR}
mkdir -p "$out"
source "$here/machine_txt.sh"
machine_txt "$out" "store in the benchmark process; simulated ranks are threads of it"
bench="$root/build/bench/bench_store"
{
  echo "$bench --benchmark_repetitions=5 --benchmark_out=scale.json --benchmark_out_format=json"
  echo "$bench --strangers 1000 --benchmark_repetitions=5 --benchmark_out=scale-strangers.json --benchmark_out_format=json"
  echo "$root/build/tests/cli_tests '1\,000 stalled connections before and during the bootstrap do not hold a 4-rank job' (x5)"
  echo "python3 $here/plot_store_scale.py $out   # writes scale.dat and runs gnuplot"
} >"$out/commands.txt"
"$bench" --benchmark_repetitions=5 --benchmark_out="$out/scale.json" --benchmark_out_format=json >"$out/scale.txt" 2>&1
"$bench" --strangers 1000 --benchmark_repetitions=5 --benchmark_out="$out/scale-strangers.json" \
  --benchmark_out_format=json >"$out/scale-strangers.txt" 2>&1
for i in 1 2 3 4 5; do
  "$root/build/tests/cli_tests" '1\,000 stalled connections before and during the bootstrap do not hold a 4-rank job' |
    grep '^4-rank job'
done >"$out/job-beside-strangers.txt"
python3 "$here/plot_store_scale.py" "$out"
