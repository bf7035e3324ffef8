#!/usr/bin/env bash
# Issue 24's cluster figures, each from a fresh emulated cluster (one rank per host,
# --spin-us 0: up to 8 ranks on this machine's cores):
#  - fit/: ring AllReduce and AllGather sweeps at 2, 3, 4, 6 and 8 hosts, cables at
#    2 Gbit/s with 1 ms of delay on each cable end (4 ms round trip host to host);
#    `model fit` of the 4-host runs, `model validate` fitting 2-4 hosts and predicting
#    6 and 8;
#  - study/: the same profiles on 4 hosts with 10 Gbit/s cables, and with 2 Gbit/s and
#    1 ms a cable end, tabulated by `study --from`.
#   results/run-cluster-model.sh OUTDIR [CCBENCH]        (root: namespaces and tc)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [CCBENCH]}"
ccbench="${2:-$here/build/tools/ccbench}" cluster="$here/tools/netns/cluster"
mkdir -p "$out/fit" "$out/study"
out="$(cd "$out" && pwd)"
source "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-cluster-model.sh $*" "$("$ccbench" --version)" \
  "cluster: tbf per cable end, MTU 9000, one rank per host, --spin-us 0 ($(nproc) cores)"
trap '"$cluster" down >/dev/null 2>&1' EXIT
sizes=48K,96K,192K,384K,768K,1536K,3M,6M,12M,24M  # multiples of 4 B x 2, 3, 4, 6 and 8 ranks
for n in 2 3 4 6 8; do
  "$cluster" up --hosts "$n" --rate 2gbit --delay 1ms > "$out/fit/cluster-${n}h.txt"
  "$cluster" run -- "$ccbench" run --algo ring --sizes "$sizes" -n 5 -w 1 --spin-us 0 --line-rate 2G \
    --json "$out/fit/allreduce-ring-${n}h.json" > "$out/fit/allreduce-ring-${n}h.txt" 2>&1
  "$cluster" run -- "$ccbench" run --collective all_gather --sizes "$sizes" -n 5 -w 1 --spin-us 0 --line-rate 2G \
    --json "$out/fit/all-gather-${n}h.json" > "$out/fit/all-gather-${n}h.txt" 2>&1
  "$cluster" down > /dev/null
done
sweeps=("$out"/fit/allreduce-ring-*h.json "$out"/fit/all-gather-*h.json)
"$ccbench" model fit "$out"/fit/allreduce-ring-4h.json "$out"/fit/all-gather-4h.json --out "$out/fit/fit-4h.json" --plot "$out/fit/fit-4h.svg" > "$out/fit/fit-4h.txt" 2>&1
"$ccbench" model fit "${sweeps[@]}" --ranks 2,3,4 --out "$out/fit/fit-2to4h.json" > "$out/fit/fit-2to4h.txt" 2>&1
"$ccbench" model validate "${sweeps[@]}" --fit-ranks 2,3,4 --json "$out/fit/validate.json" > "$out/fit/validate.txt" 2>&1
profiles=(--profile bert-large:ddp --profile gpt2-xl:tp --profile t5-11b:tp)
study_run() {  # NAME CLUSTER-FLAGS...
  local name=$1; shift
  "$cluster" up --hosts 4 "$@" > "$out/study/cluster-$name.txt"
  "$cluster" run -- "$ccbench" run "${profiles[@]}" -n 2 -w 1 --spin-us 0 --json "$out/study/$name.json" \
    > "$out/study/$name.txt" 2>&1
  "$cluster" down > /dev/null
}
study_run 10g --rate 10gbit
study_run 2g-1ms --rate 2gbit --delay 1ms
"$ccbench" study --from "$out/study/10g.json" --label 10G --from "$out/study/2g-1ms.json" --label 2G-1ms \
  --out "$out/study/table" > "$out/study/table.txt" 2>&1
cat "$out/fit/fit-4h.txt" "$out/fit/validate.txt" "$out/study/table.txt"
