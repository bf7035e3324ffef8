#!/usr/bin/env python3
"""Median AllReduce time per series, rank count and size over rounds, from the peer
harness's results.json and ccbench's result records (never its printed table); then
ccbench's time over the fastest peer's (below 1: ccbench is faster)."""
import glob
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
series = {}  # (ranks, name, size) -> [time_us]

for path in sorted(glob.glob(os.path.join(out, "peers-*", "results.json"))):
    for row in json.load(open(path))["allreduce"]:
        if row.get("correct"):
            name = row["label"] + (":" + row["algo"] if row["peer"] == "gloo" else "")
            series.setdefault((row["ranks"], name, row["size_bytes"]), []).append(row["time_us"])
for path in sorted(glob.glob(os.path.join(out, "ccbench-*.json"))):
    auto = re.search(r"-auto-", path) is not None
    record = json.load(open(path))
    ranks = record["job"]["ranks"]
    for r in record["results"]:
        if r["collective"] == "allreduce" and r["wrong"] == 0:
            name = "ccbench:auto" if auto else "ccbench:" + r["algorithm"]
            series.setdefault((ranks, name, r["bytes"]), []).append(r["time_us"])

for ranks in sorted({k[0] for k in series}):
    keys = {k for k in series if k[0] == ranks}
    sizes = sorted({k[2] for k in keys})
    names = sorted({k[1] for k in keys}, key=lambda n: (n.startswith("ccbench"), n))
    print(f"AllReduce time (us), {ranks} ranks, float32 sum, in place, loopback TCP; median over rounds")
    print(f"{'series':36s} " + " ".join(f"{s:>9d}" for s in sizes))
    med = {}
    for n in names:
        cells = []
        for s in sizes:
            v = series.get((ranks, n, s))
            if v:
                med[(n, s)] = statistics.median(v)
            cells.append(f"{med[(n, s)]:9.1f}" if v else f"{'-':>9s}")
        print(f"{n:36s} " + " ".join(cells))
    print("-- ccbench time / fastest peer time (below 1: ccbench faster)")
    for n in [n for n in names if n.startswith("ccbench")]:
        cells = []
        for s in sizes:
            peers = [v for (pn, ps), v in med.items() if ps == s and not pn.startswith("ccbench")]
            cells.append(f"{med[(n, s)] / min(peers):9.2f}" if peers and (n, s) in med else f"{'-':>9s}")
        print(f"{n:36s} " + " ".join(cells))
    print("-- auto time / best single ccbench algorithm time")
    cells = []
    for s in sizes:
        best = [med[(n, s)] for n in names if n.startswith("ccbench:") and n != "ccbench:auto" and (n, s) in med]
        cells.append(f"{med[('ccbench:auto', s)] / min(best):9.2f}" if best and ("ccbench:auto", s) in med else f"{'-':>9s}")
    print(f"{'ccbench:auto':36s} " + " ".join(cells))
    print()
