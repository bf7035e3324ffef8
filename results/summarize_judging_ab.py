#!/usr/bin/env python3
"""Summarizes run-judging-ab.sh's OUTDIR from the compare JSON files (never a table):
the A/A false-alarm rate over the pairs, and the A/B verdict per size."""
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1])
lines = []
pairs = sorted(out.glob("aa-*.json"))
flagged = 0
for p in pairs:
    c = json.loads(p.read_text())
    hits = [k["key"] for k in c["keys"] if k["verdict"] in ("regression", "improvement")]
    flagged += bool(hits)
    lines.append(f"A/A {p.stem}: {c['tested']} keys tested, geometric mean change {c['geomean_change'] * 100:+.2f}%, "
                 f"flagged: {', '.join(hits) if hits else 'nothing'} (exit {c['exit_status']})")
lines.append(f"A/A false alarms: {flagged} of {len(pairs)} pairs flagged anything "
             f"({flagged / max(1, len(pairs)) * 100:.0f}%)")
for name in ("ab", "ab-baseline"):
    c = json.loads((out / f"{name}.json").read_text())
    lines.append(f"A/B {name} (exit {c['exit_status']}): geometric mean change {c['geomean_change'] * 100:+.2f}%")
    for k in c["keys"]:
        size = int(k["key"].split(" ranks ")[1].split(" ")[0])
        need = "must regress" if size >= 1 << 20 else "may be anything"
        ok = k["verdict"] == "regression" or size < 1 << 20
        lines.append(f"  {k['key']}: {k['change'] * 100:+.1f}%, p {k['p']:.2g}, {k['verdict']} ({need}: "
                     f"{'PASS' if ok else 'FAIL'})")
print("\n".join(lines))
