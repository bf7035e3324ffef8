#!/usr/bin/env bash
# --algo auto against every single AllReduce algorithm over loopback TCP, 8 B to 64 MiB,
# 2 and 4 ranks, rounds alternating the series. Reads the JSON records.
#
#   results/run-auto-vs-algos.sh OUTDIR [ROUNDS]      (default 3)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [ROUNDS]}"
rounds="${2:-3}"
ccbench="$here/build/tools/ccbench"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
. "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-auto-vs-algos.sh $*"
for r in $(seq 1 "$rounds"); do
  for np in 2 4; do
    echo "== round $r, $np ranks" >&2
    "$ccbench" run --np "$np" -b 8 -e 64M -f 4 --algo ring,tree,rd --json "$out/algos-$r-$np.json" > "$out/algos-$r-$np.txt" 2>&1
    "$ccbench" run --np "$np" -b 8 -e 64M -f 4 --algo auto --json "$out/auto-$r-$np.json" > "$out/auto-$r-$np.txt" 2>&1
  done
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import glob, json, os, statistics, sys
out = sys.argv[1]
t = {}  # (ranks, series, bytes) -> [time_us]
for path in glob.glob(os.path.join(out, "*.json")):
    rec = json.load(open(path))
    auto = os.path.basename(path).startswith("auto-")
    for r in rec["results"]:
        name = "auto" if auto else r["algorithm"]
        t.setdefault((rec["job"]["ranks"], name, r["bytes"]), []).append(r["time_us"])
        if auto:
            t.setdefault((rec["job"]["ranks"], "auto ran", r["bytes"]), []).append(r["algorithm"])
for ranks in sorted({k[0] for k in t}):
    sizes = sorted({k[2] for k in t if k[0] == ranks})
    print(f"AllReduce over loopback TCP, {ranks} ranks: median time (us) over rounds; auto / best single algorithm")
    print(f"{'bytes':>10s} {'ring':>10s} {'tree':>10s} {'rd':>10s} {'auto':>10s} {'ran':>5s} {'ratio':>6s}")
    for b in sizes:
        med = {a: statistics.median(t[(ranks, a, b)]) for a in ("ring", "tree", "rd", "auto") if (ranks, a, b) in t}
        best = min(med[a] for a in ("ring", "tree", "rd") if a in med)
        ran = "/".join(sorted(set(t.get((ranks, "auto ran", b), []))))
        print(f"{b:10d} " + " ".join(f"{med.get(a, float('nan')):10.1f}" for a in ("ring", "tree", "rd", "auto")) +
              f" {ran:>5s} {med['auto'] / best:6.2f}")
    print()
PY
