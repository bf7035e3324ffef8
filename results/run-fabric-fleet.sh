#!/usr/bin/env bash
# Issue 34's fleet acceptance on the scan model (`ccbench fabric simulate`: link rates and
# shared paths, not a network): 1,024 hosts on 32 leaves and 4 spines, 2% noise, fixed
# seeds. For each plan, one faulted uplink, one faulted host cable and one faulted spine
# (each keeping half), each named with nothing else; then RUNS runs with nothing faulted,
# none of which may name anything. Counts the true and false verdicts and times each run.
#
#   results/run-fabric-fleet.sh OUTDIR [RUNS]      (default 100)
#
# Writes OUTDIR/runs.txt (plan, fault, seed, exit, wall s, findings, the model's scan s),
# OUTDIR/verdicts.txt (every FAIL line), OUTDIR/machine.txt and OUTDIR/summary.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [RUNS]}"
runs="${2:-100}"
ccbench="$here/build/tools/ccbench"
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
. "$here/results/machine_txt.sh"
fleet=(--hosts 1024 --leaves 32 --spines 4 --noise 0.02)
machine_txt "$out" "command: results/run-fabric-fleet.sh $* (ccbench fabric simulate ${fleet[*]})"
: > "$out/runs.txt"
: > "$out/verdicts.txt"
one() {  # plan fault seed
  local plan=$1 fault=$2 seed=$3 start end rc=0 text
  start=$(date +%s.%N)
  if [ "$fault" = none ]; then
    text=$("$ccbench" fabric simulate "${fleet[@]}" --plan "$plan" --seed "$seed" 2>&1) || rc=$?
  else
    text=$("$ccbench" fabric simulate "${fleet[@]}" --plan "$plan" --seed "$seed" --fault "$fault:0.5" 2>&1) || rc=$?
  fi
  end=$(date +%s.%N)
  local fails model
  fails=$(grep -c '^scan: FAIL' <<<"$text" || true)
  model=$(sed -n 's/.*the model.s time: \([0-9.]*\) s of rounds, \([0-9.]*\) s of retests/\1+\2/p' <<<"$text")
  grep '^scan: FAIL' <<<"$text" | sed "s|^|$plan $fault $seed: |" >> "$out/verdicts.txt" || true
  echo "$plan $fault $seed $rc $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }') $fails $model" >> "$out/runs.txt"
}
for plan in leaf-first full; do
  for fault in 'leaf7->spine2' h300 spine3; do one "$plan" "$fault" 7; done
  for seed in $(seq 1 "$runs"); do one "$plan" none "$seed"; done
done
python3 - "$out/runs.txt" "$out/verdicts.txt" <<'PY' | tee "$out/summary.txt"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
verdicts = [l.rstrip("\n") for l in open(sys.argv[2])]
expect = {"leaf7->spine2": "leaf7 -> spine2 uplink:", "h300": "host h300's cable", "spine3": "spine switch spine3:"}
print("fleet on the scan model: 1024 hosts, 32 leaves, 4 spines, 2% noise, faults keep 0.5")
for plan in ("leaf-first", "full"):
    mine = [r for r in rows if r[0] == plan]
    faulted = [r for r in mine if r[1] != "none"]
    clean = [r for r in mine if r[1] == "none"]
    true = sum(1 for r in faulted if r[3] == "1" and r[5] == "1" and
               any(v.startswith(f"{plan} {r[1]} {r[2]}: scan: FAIL: {expect[r[1]]}") for v in verdicts))
    false_clean = sum(1 for r in clean if r[3] != "0" or r[5] != "0")
    walls = [float(r[4]) for r in mine]
    model = [sum(float(x) for x in r[6].split("+")) for r in clean if len(r) > 6]
    print(f"  {plan:10s}: faults named alone {true} of {len(faulted)}; clean runs with a verdict {false_clean} of {len(clean)}; "
          f"wall s per run median {statistics.median(walls):.2f} (max {max(walls):.2f}); the model's scan time, clean, median {statistics.median(model):.1f} s")
PY
