#!/usr/bin/env python3
"""Summarizes results/run-verbs-vs-peers.sh: medians over rounds, in GB/s (10^9 B/s).

ib_write_bw prints Gb/s (--report_gbits); GB/s = Gb/s / 8. For -b (bidirectional)
perftest prints the sum of both directions; the table also gives the per-direction
half, which is what one direction of a 2-rank ring can use while the other is busy.
"""
import glob
import os
import re
import statistics
import sys


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def perftest(raw, bidir):
    out = {}
    for path in glob.glob(os.path.join(raw, "ib_write_bw-b-*.txt" if bidir else "ib_write_bw-[0-9]*.txt")):
        size = int(re.search(r"-(\d+)-r\d+\.txt$", path).group(1))
        for line in open(path):
            f = line.split()
            if len(f) >= 5 and f[0] == str(size):
                out.setdefault(size, []).append(float(f[3]) / 8)  # BW average, Gb/s -> GB/s
    return {s: median(v) for s, v in out.items()}


def tables(raw, pattern, parse):
    out = {}
    for path in glob.glob(os.path.join(raw, pattern)):
        for key, value in parse(path):
            out.setdefault(key, []).append(value)
    return {k: median(v) for k, v in out.items()}


def parse_ccbench(path):
    for line in open(path):
        f = line.split()
        if len(f) == 9 and f[0].isdigit():
            yield (f[4], int(f[0])), float(f[7])


def parse_gloo(path):
    algo = None
    for line in open(path):
        m = re.match(r"# algo=(\S+)", line)
        if m:
            algo = m.group(1)
        f = line.strip().split(",")
        if algo and len(f) == 7 and f[0].isdigit():
            yield (algo, int(f[0])), float(f[3])


def main(outdir):
    raw = os.path.join(outdir, "raw")
    one, bi = perftest(raw, False), perftest(raw, True)
    print("ib_write_bw on rxe0 (GB/s):")
    print(f"{'size':>10} {'one-way':>9} {'-b sum':>9} {'-b each way':>12}")
    for s in sorted(one):
        print(f"{s:>10} {one[s]:9.4f} {bi.get(s, float('nan')):9.4f} {bi.get(s, float('nan')) / 2:12.4f}")
    series = {
        "ccbench verbs": tables(raw, "ccbench-verbs-r*.txt", parse_ccbench),
        "ccbench verbs qps=2": tables(raw, "ccbench-verbs-qps2-r*.txt", parse_ccbench),
        "ccbench tcp (in VM)": tables(raw, "ccbench-tcp-r*.txt", parse_ccbench),
        "gloo ibverbs": tables(raw, "gloo-ibverbs-r*.csv", parse_gloo),
    }
    print("\nAllReduce busbw, 2 ranks, float32 sum in place (GB/s, median of rounds):")
    sizes = [1 << 20, 8 << 20, 64 << 20]
    print(f"{'series':<34}" + "".join(f"{s >> 20:>8} MiB" for s in sizes))
    for name, t in series.items():
        for algo in sorted({k[0] for k in t}):
            print(f"{name + ' ' + algo:<34}" + "".join(f"{t.get((algo, s), float('nan')):12.4f}" for s in sizes))
    ring = series["ccbench verbs"]
    gloo = series["gloo ibverbs"]
    top = max(one)
    print("\nTargets:")
    for s in sizes:
        best_gloo = max((v for (a, sz), v in gloo.items() if sz == s), default=float("nan"))
        print(f"  {s >> 20:>2} MiB: ring / best Gloo = {ring.get(('ring', s), float('nan')) / best_gloo:.2f}x")
    r64 = ring.get(("ring", 64 << 20), float("nan"))
    print(f"  ring busbw at 64 MiB / ib_write_bw one-way at {top >> 20} MiB = {r64 / one[top]:.2f}")
    if top in bi:
        print(f"  ring busbw at 64 MiB / ib_write_bw -b each way at {top >> 20} MiB = {r64 / (bi[top] / 2):.2f}")
    tcp = series["ccbench tcp (in VM)"].get(("ring", 64 << 20), float("nan"))
    print(f"  ring verbs / ring tcp at 64 MiB = {r64 / tcp:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1])
