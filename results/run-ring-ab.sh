#!/usr/bin/env bash
# Two ccbench builds side by side on the ring collectives: 4 ranks on loopback,
# rounds interleaved, the median of each build's processes per size.
#
#   results/run-ring-ab.sh OUTDIR OLD_CCBENCH NEW_CCBENCH [ROUNDS]      (default 3)
set -euo pipefail
out=${1:?usage: $0 OUTDIR OLD_CCBENCH NEW_CCBENCH [ROUNDS]}
old=${2:?}
new=${3:?}
rounds=${4:-3}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/results/machine_txt.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
machine_txt "$out" "command: results/run-ring-ab.sh $*"
: >"$out/commands.txt"
for ((round = 1; round <= rounds; round++)); do
  for which in old new; do
    bin=$old
    [[ $which == new ]] && bin=$new
    for c in allreduce reduce_scatter all_gather; do
      cmd=("$bin" run --np 4 --collective "$c" --algo ring --sizes 64K,1M,16M,64M -n 20 --json "$out/$which-$c-$round.json")
      echo "${cmd[*]}" >>"$out/commands.txt"
      "${cmd[@]}" >/dev/null
    done
  done
done
python3 - "$out" "$rounds" <<'PY' | tee "$out/summary.txt"
import json, os, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
print(f"{'collective':15s} {'bytes':>9s} {'old_us':>9s} {'new/old':>7s}  old processes / new processes (us)")
for c in ("allreduce", "reduce_scatter", "all_gather"):
    runs = {w: [json.load(open(os.path.join(out, f"{w}-{c}-{r}.json")))["results"] for r in range(1, rounds + 1)]
            for w in ("old", "new")}
    for i, res in enumerate(runs["old"][0]):
        t = {w: [run[i]["time_us"] for run in runs[w]] for w in runs}
        assert all(run[i]["wrong"] == 0 for w in runs for run in runs[w])
        o, n = statistics.median(t["old"]), statistics.median(t["new"])
        print(f"{c:15s} {res['bytes']:9d} {o:9.0f} {n / o:7.2f}  {' '.join(f'{x:.0f}' for x in t['old'])} / "
              f"{' '.join(f'{x:.0f}' for x in t['new'])}")
PY
