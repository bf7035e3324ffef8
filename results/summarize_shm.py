#!/usr/bin/env python3
"""One host: medians over rounds of busbw (and the 8 B time) per series, per rank count;
ccbench shm against Open MPI vader. ccbench's figures come from its result records."""
import glob
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
series = {}  # (ranks, name, size) -> {"busbw": [...], "time_us": [...]}


def add(ranks, name, size, busbw, time_us):
    s = series.setdefault((ranks, name, size), {"busbw": [], "time_us": []})
    s["busbw"].append(busbw)
    s["time_us"].append(time_us)


for path in sorted(glob.glob(os.path.join(out, "peers-*", "results.json"))):
    for row in json.load(open(path))["allreduce"]:
        if row.get("correct"):
            add(row["ranks"], row["label"], row["size_bytes"], row["busbw_GBps"], row["time_us"])
for path in sorted(glob.glob(os.path.join(out, "ccbench-*.json"))):
    m = re.search(r"ccbench-\d+-(\w+)-(\d+)\.json$", path)
    record = json.load(open(path))
    for r in record["results"]:
        if r["collective"] == "allreduce" and r["wrong"] == 0:
            add(int(m.group(2)), "ccbench-" + m.group(1), r["bytes"], r["busbw_gbps"], r["time_us"])


def median(ranks, name, size, metric):
    v = series.get((ranks, name, size), {}).get(metric)
    return statistics.median(v) if v else None


for ranks in sorted({k[0] for k in series}):
    names = sorted({k[1] for k in series if k[0] == ranks}, key=lambda n: (n.startswith("ccbench"), n))
    sizes = sorted({k[2] for k in series if k[0] == ranks})
    vader = next((n for n in names if "vader" in n), None)
    print(f"\nAllReduce, {ranks} ranks, one host, float32 sum, in place; median over rounds")
    print(f"{'series':24s} " + " ".join(f"{s:>11d}" for s in sizes))
    for metric, unit in (("busbw", "GB/s"), ("time_us", "us")):
        print(f"-- {metric} ({unit})")
        for n in names:
            cells = [median(ranks, n, s, metric) for s in sizes]
            print(f"{n:24s} " + " ".join(f"{c:11.3f}" if c is not None else f"{'-':>11s}" for c in cells))
    if vader:
        print(f"-- ccbench-shm / {vader}: busbw ratio (8 B: {vader} time / shm time)")
        cells = []
        for s in sizes:
            metric = "time_us" if s <= 8 else "busbw"
            mine, theirs = median(ranks, "ccbench-shm", s, metric), median(ranks, vader, s, metric)
            if mine is None or theirs is None or mine == 0:
                cells.append(f"{'-':>11s}")
            else:
                cells.append(f"{(theirs / mine if s <= 8 else mine / theirs):11.2f}")
        print(f"{'ccbench-shm':24s} " + " ".join(cells))
