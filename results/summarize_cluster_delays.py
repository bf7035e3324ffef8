#!/usr/bin/env python3
"""Table of run-cluster-delays-host.sh's records: busbw as % of the line rate (the
record's link_util_pct, from --line-rate 2G), and tree's time over ring's."""
import json
import sys
from pathlib import Path

out = Path(sys.argv[1])
print(f"{'delay':>5} {'cc':>5} {'str':>3} {'size':>9} {'ring us':>10} {'ring %':>7} {'tree us':>10} {'tree %':>7} {'tree/ring':>9}")
for path in sorted(out.glob("delay-*.json"), key=lambda p: (int(p.stem.split('-')[1][:-2]), p.stem)):
    _, delay, cc, streams = path.stem.split("-")
    rows = json.loads(path.read_text())["results"]
    by = {(r["algorithm"], r["bytes"]): r for r in rows}
    for size in sorted({b for _, b in by}):
        ring, tree = by[("ring", size)], by[("tree", size)]
        pct = lambda r: r["link_util_pct"]
        print(f"{delay:>5} {cc:>5} {streams[1:]:>3} {size:>9} {ring['time_us']:>10.0f} {pct(ring):>7.1f} "
              f"{tree['time_us']:>10.0f} {pct(tree):>7.1f} {tree['time_us'] / ring['time_us']:>9.2f}")
