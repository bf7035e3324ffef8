#!/usr/bin/env bash
# Issue 21's rules acceptance on the 2-host shaped link (root): one rule file whose bound
# is 90% of the line rate, a run with --line-rate at RATE that passes, and the same run
# with the link shaped to SLOW that fails, naming the rule and the sizes.
# Usage: results/run-judging-rules.sh OUTDIR [RATE=2gbit] [SLOW=1.6gbit]
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
cat >"$out/rules.yaml" <<'RULES'
rules:
  - name: AllReduce at 90% of the line rate from 1 MiB
    select: {collective: allreduce, min_bytes: 1M}
    require: link_util_pct >= 90
  - name: no wrong results
    require: wrong == 0
  - name: every size measured
    select: {sizes: [1M, 4M, 16M, 64M]}
    require: present
RULES
args=(run --line-rate "${rate%bit}" --sizes 1M,4M,16M,64M --algo ring -n 10 -w 2 --repeat 5 --rules "$out/rules.yaml" --retries 2)

source "$here/results/shaped_pair_run.sh"
# run_pair NAME LINK_RATE: the link at that rate; rank 0 writes NAME.json/.xml/.txt.
run_pair() {
  local status=0
  "$pair" up --rate "$2" --mtu 9000 >"$out/link-$1.txt"
  RANK0_EXTRA=(--junit "$out/$1.xml")
  shaped_pair_run "$out" "$1" "${args[@]}" || status=$?
  echo "$1 (link $2): exit $status" | tee -a "$out/summary.txt"
  "$pair" down >/dev/null
}
{
  echo "shaped-pair up --rate RATE --mtu 9000; one rank per host (env launch, as in run-judging-ab.sh):"
  echo "  ccbench ${args[*]} --iface ccb{a,b}0 --json NAME.json --junit NAME.xml   (rank 0 writes)"
  echo "at $rate (NAME at-rate) and at $slow (NAME shaped-below)"
} >"$out/commands.txt"
: >"$out/summary.txt"
run_pair at-rate "$rate"
run_pair shaped-below "$slow"
machine_txt "$out" "link: veth between two namespaces, tbf at $rate, then at $slow; MTU 9000"
grep -h "^FAIL\|^# retry\|passed," "$out"/at-rate.txt "$out"/shaped-below.txt | sed 's/^/  /' | tee -a "$out/summary.txt"
