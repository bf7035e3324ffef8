#!/usr/bin/env bash
# Issue 21's acceptance runs on the 2-host shaped link (tools/netns/shaped-pair, root):
#  A/A: 10 runs at RATE, each --repeat 10 --shuffle over 64K..16M, compared in 5 pairs:
#       how often does compare flag anything between runs of one build and link?
#  A/B: 2 runs with the link shaped to SLOW (20% less), compared with an A run and with
#       the baseline of all A runs: every size of 1 MiB or more must be a regression.
# Every run records --line-rate RATE (what the lab believes the link is), so A and B stay
# comparable and the slower link shows as the regression it is.
# Usage: results/run-judging-ab.sh OUTDIR [RATE=2gbit] [SLOW=1.6gbit]
set -euo pipefail
out=${1:?usage: $0 OUTDIR [RATE] [SLOW]}
rate=${2:-2gbit}
slow=${3:-1.6gbit}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
ccbench=${BUILD:-$here/build}/tools/ccbench
pair="$here/tools/netns/shaped-pair"
mkdir -p "$out"
out=$(cd "$out" && pwd)
trap '"$pair" down >/dev/null 2>&1 || true' EXIT
run_args=(run --line-rate "${rate%bit}" --sizes 64K,1M,4M,16M --algo ring -n 10 -w 2 --repeat 10 --shuffle)

source "$here/results/shaped_pair_run.sh"
RANK0_EXTRA=()
run_pair() { shaped_pair_run "$out" "$1" "${run_args[@]}"; }

{
  echo "shaped-pair up --rate $rate --mtu 9000, then 10 times (NAME a1..a10), one rank per host:"
  echo "  ip netns exec ccbb env CCB_WORLD_SIZE=2 CCB_MASTER_ADDR=10.77.0.1 CCB_MASTER_PORT=P CCB_TOKEN=NAME CCB_RANK=1 ccbench ${run_args[*]} --iface ccbb0"
  echo "  ip netns exec ccba env ... CCB_RANK=0 ccbench ${run_args[*]} --iface ccba0 --json NAME.json"
  echo "shaped-pair up --rate $slow, then the same for b1, b2"
  echo "ccbench compare a1.json a2.json (and a3/a4 ... a9/a10) --junit aa-N.xml"
  echo "ccbench baseline --out base.json a*.json; ccbench compare a1.json b1.json and base.json b2.json --junit --markdown"
} >"$out/commands.txt"

"$pair" up --rate "$rate" --mtu 9000 >"$out/link-a.txt"
for i in $(seq 1 10); do run_pair "a$i"; done
"$pair" down >/dev/null
"$pair" up --rate "$slow" --mtu 9000 >"$out/link-b.txt"
for i in 1 2; do run_pair "b$i"; done
"$pair" down >/dev/null
machine_txt "$out" "link: veth between two namespaces, tbf at $rate (A) and $slow (B), MTU 9000"

set +e
for p in 1 2 3 4 5; do
  "$ccbench" compare "$out/a$((2 * p - 1)).json" "$out/a$((2 * p)).json" --junit "$out/aa-$p.xml" \
    --json "$out/aa-$p.json" >"$out/aa-$p.txt" 2>&1
  echo "aa-$p exit $?" >>"$out/exits.txt"
done
"$ccbench" baseline --out "$out/base.json" "$out"/a{1,2,3,4,5,6,7,8,9,10}.json >"$out/baseline.txt" 2>&1
"$ccbench" compare "$out/a1.json" "$out/b1.json" --junit "$out/ab.xml" --markdown "$out/ab.md" --json "$out/ab.json" \
  >"$out/ab.txt" 2>&1
echo "ab exit $?" >>"$out/exits.txt"
"$ccbench" compare "$out/base.json" "$out/b2.json" --junit "$out/ab-baseline.xml" --json "$out/ab-baseline.json" \
  >"$out/ab-baseline.txt" 2>&1
echo "ab-baseline exit $?" >>"$out/exits.txt"
set -e
python3 "$here/results/summarize_judging_ab.py" "$out" | tee "$out/summary.txt"
