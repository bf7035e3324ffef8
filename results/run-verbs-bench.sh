#!/usr/bin/env bash
# The Google Benchmark driver and a profile run over verbs, in the soft-RoCE VM
# (tools/rxe-vm/rxe-run): 2 ranks on rxe0, Google Benchmark JSON and ccbench JSON/CSV.
# Usage: results/run-verbs-bench.sh OUTDIR
set -euo pipefail
out=${1:?usage: $0 OUTDIR}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
build=${BUILD:-$here/build}
mkdir -p "$out"
out=$(cd "$out" && pwd)
guest=(
  "$build/bench/bench_collectives --np 2 --transport verbs --sizes 64K,1M,8M --iters 10 --warmup 2"
  "--profile bert-large:tp --benchmark_out=$out/bench.json --benchmark_out_format=json > $out/bench.txt 2>&1;"
  "$build/tools/ccbench run --np 2 --transport verbs --profile bert-large:tp --algo ring,tree -n 20"
  "--json $out/ccbench.json --csv $out/ccbench.csv > $out/ccbench.txt 2>&1;"
  "ibv_devinfo -v > $out/ibv_devinfo.txt 2>&1; ls /sys/class/infiniband/rxe0/ports/1/ > $out/sysfs-port.txt 2>&1"
)
echo "RXE_VM_OUT=$out $here/tools/rxe-vm/rxe-run --timeout 1200 --mem 3G -- sh -c '${guest[*]}'" >"$out/commands.txt"
RXE_VM_OUT=$out "$here/tools/rxe-vm/rxe-run" --timeout 1200 --mem 3G -- sh -c "${guest[*]}"
machine_txt "$out" "guest: Debian linux-image-amd64 under qemu TCG, rdma_rxe on dummy0 (tools/rxe-vm)"
