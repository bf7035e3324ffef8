#!/usr/bin/env bash
# More ranks than cores: 4 ranks on this 2-core machine, AllReduce over shm and TCP,
# with the waiters sleeping at once (--spin-us 0, the local launcher's default until
# 2026-12-07) against the default since (each waiter yields the CPU while it spins, and
# the launcher widens the spin to 1000 us), in alternating rounds.
#
#   results/run-oversubscribed-yield.sh OUTDIR [ROUNDS]      (default 3 rounds)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [ROUNDS]}"
rounds="${2:-3}"
ccbench="${BUILD:-$here/build}/tools/ccbench"
sizes="8,64K,256K,1M,4M,16M"
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
. "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-oversubscribed-yield.sh $* (sizes $sizes, 4 ranks)"
for r in $(seq 1 "$rounds"); do
  for transport in shm tcp; do
    for mode in sleep yield; do
      spin=(); [ "$mode" = sleep ] && spin=(--spin-us 0)
      "$ccbench" run --transport "$transport" --np 4 --sizes "$sizes" --algo auto --in-place "${spin[@]}" \
        --json "$out/$transport-$mode-$r.json" >"$out/$transport-$mode-$r.txt" 2>&1
    done
  done
done
python3 - "$out" "$rounds" <<'PY' | tee "$out/summary.txt"
import json, os, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
t = {}
for transport in ("shm", "tcp"):
    for mode in ("sleep", "yield"):
        for rnd in range(1, rounds + 1):
            for r in json.load(open(os.path.join(out, f"{transport}-{mode}-{rnd}.json")))["results"]:
                assert r["wrong"] == 0, r
                t.setdefault((transport, mode, r["bytes"]), []).append(r["time_us"])
sizes = sorted({s for _, _, s in t})
print(f"AllReduce time_us, 4 ranks on {os.cpu_count()} cores, medians of {rounds} rounds; sleep: --spin-us 0, yield: the default")
print(f"{'series':14s}" + "".join(f"{s:>11d}" for s in sizes))
for transport in ("shm", "tcp"):
    for mode in ("sleep", "yield"):
        print(f"{transport + ' ' + mode:14s}" + "".join(f"{statistics.median(t[(transport, mode, s)]):11.1f}" for s in sizes))
    print(f"{transport + ' sleep/yield':14s}" + "".join(
        f"{statistics.median(t[(transport, 'sleep', s)]) / statistics.median(t[(transport, 'yield', s)]):10.2f}x" for s in sizes))
PY
