#!/usr/bin/env python3
"""Median busbw and time per series over rounds; ccbench against the best peer per size.
ccbench's figures come from its result records (ccbench-N.json, schema 1 or 2), never
from its printed table, whose columns change."""
import glob
import json
import os
import statistics
import sys

out = sys.argv[1]
series = {}  # (name, size) -> {"busbw": [...], "time_us": [...]}


def add(name, size, busbw, time_us):
    s = series.setdefault((name, size), {"busbw": [], "time_us": []})
    s["busbw"].append(busbw)
    s["time_us"].append(time_us)


for path in sorted(glob.glob(os.path.join(out, "peers-*", "results.json"))):
    for row in json.load(open(path))["allreduce"]:
        if row.get("correct") and row["ranks"] == 2:
            add(row["label"] + ":" + row["algo"] if row["peer"] == "gloo" else row["label"],
                row["size_bytes"], row["busbw_GBps"], row["time_us"])
records = sorted(glob.glob(os.path.join(out, "ccbench-*.json")))
if not records and glob.glob(os.path.join(out, "ccbench-*.txt")):
    sys.exit(f"{out}: ccbench's rounds have no JSON records (ccbench-N.json); rerun run-tcp-vs-peers.sh")
for path in records:
    record = json.load(open(path))
    if not record["schema"].startswith("ccbench.result/"):
        sys.exit(f"{path}: not a ccbench result record")
    for r in record["results"]:
        if r["collective"] == "allreduce" and r["wrong"] == 0:
            add("ccbench-tcp:" + r["algorithm"], r["bytes"], r["busbw_gbps"], r["time_us"])

sizes = sorted({size for (_, size) in series})
names = sorted({name for (name, _) in series}, key=lambda n: (n.startswith("ccbench"), n))
print("AllReduce, 2 ranks, float32 sum, in place, loopback TCP; median over rounds")
print(f"{'series':44s} " + " ".join(f"{s:>14d}" for s in sizes))
for metric, unit in (("busbw", "GB/s"), ("time_us", "us")):
    print(f"-- {metric} ({unit})")
    for n in names:
        cells = []
        for s in sizes:
            v = series.get((n, s), {}).get(metric)
            cells.append(f"{statistics.median(v):14.3f}" if v else f"{'-':>14s}")
        print(f"{n:44s} " + " ".join(cells))
print("-- ccbench busbw / best peer busbw (latency: best peer time / ccbench time)")
for n in [n for n in names if n.startswith("ccbench")]:
    cells = []
    for s in sizes:
        peers = [statistics.median(v[("time_us" if s <= 8 else "busbw")])
                 for (pn, ps), v in series.items() if ps == s and not pn.startswith("ccbench")]
        mine = series.get((n, s))
        if not peers or not mine:
            cells.append(f"{'-':>14s}")
        elif s <= 8:
            cells.append(f"{min(peers) / statistics.median(mine['time_us']):14.2f}")
        else:
            cells.append(f"{statistics.median(mine['busbw']) / max(peers):14.2f}")
    print(f"{n:44s} " + " ".join(cells))
