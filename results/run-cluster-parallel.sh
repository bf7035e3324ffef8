#!/usr/bin/env bash
# A Llama-like model (TinyLlama 1.1B's shape) as a 3D-parallel job, tp=2,pp=2,dp=2, on
# the 4-host emulated cluster with cables shaped to 2 Gbit/s, 2 ranks per host (root: it
# makes namespaces). Consecutive ranks share a host, so each TP group talks over its
# host's own address (unshaped, a node's fast path) and the PP and DP groups cross
# the cables.
#
#   results/run-cluster-parallel.sh OUTDIR [PASSES]      (default 3 timed passes)
set -euo pipefail
out=${1:?usage: $0 OUTDIR [PASSES]}
passes=${2:-3}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
cluster_bench_begin "$out" "command: results/run-cluster-parallel.sh $*" "cluster: 4 hosts, cables shaped to 2gbit, 2 ranks per host"
cat >"$out/tinyllama-1.1b.json" <<'JSON'
{"name": "tinyllama-1.1b", "architecture": "llama", "hidden": 2048, "layers": 22, "ffn": 5632, "heads": 32,
 "kv_heads": 4, "vocab": 32000, "seq": 2048, "micro_batch": 1, "micro_batches": 4}
JSON
"$cluster" up --hosts 4 --rate 2gbit >"$out/cluster.txt"
cmd=("$build/tools/ccbench" run --profile "$out/tinyllama-1.1b.json" --parallel tp=2,pp=2,dp=2
     --trace-passes "$passes" --timeout 300 --json "$out/parallel.json")
echo "$cluster run --ranks-per-host 2 -- ${cmd[*]}" >"$out/commands.txt"
"$cluster" run --ranks-per-host 2 -- "${cmd[@]}" 2>&1 | tee "$out/parallel.txt"
