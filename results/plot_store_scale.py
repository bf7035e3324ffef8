#!/usr/bin/env python3
"""Reads the Google Benchmark JSON of bench_store (scale.json, scale-strangers.json) in
OUTDIR, writes scale.dat and summary.txt, and draws scale.png and scale.svg with gnuplot:
the median bootstrap time against the number of ranks, with n and n log n guides
through the smallest point."""
import json
import math
import pathlib
import subprocess
import sys

out = pathlib.Path(sys.argv[1])


def medians(name):
    runs = json.loads((out / name).read_text())["benchmarks"]
    got = {}
    for r in runs:
        if r.get("aggregate_name") == "median":
            got[int(r["ranks"])] = r["real_time"] / 1e3  # ms -> s
    return dict(sorted(got.items()))


alone, beside = medians("scale.json"), medians("scale-strangers.json")
n0 = min(alone)
rows, lines = [], ["ranks  alone_s  beside_1000_strangers_s  growth  n_log_n_growth"]
prev = None
for n, t in alone.items():
    nlogn = n * math.log2(n) / (n0 * math.log2(n0))
    rows.append(f"{n} {t:.5f} {beside.get(n, float('nan')):.5f} {alone[n0] * n / n0:.5f} {alone[n0] * nlogn:.5f}")
    growth = f"{t / alone[prev]:.2f}x" if prev else "-"
    step = f"{(n * math.log2(n)) / (prev * math.log2(prev)):.2f}x" if prev else "-"
    lines.append(f"{n:5d}  {t:7.3f}  {beside.get(n, float('nan')):23.3f}  {growth:>6}  {step:>14}")
    prev = n
(out / "scale.dat").write_text("# ranks alone_s beside_s n_guide_s nlogn_guide_s\n" + "\n".join(rows) + "\n")
goal = "PASS" if alone[max(alone)] < 5 else "FAIL"
lines.append(f"goal: {max(alone)} ranks in under 5 s: {alone[max(alone)]:.2f} s ({goal}); growth per step is "
             "at or below n log n's when each 'growth' is at most its 'n_log_n_growth'")
(out / "summary.txt").write_text("\n".join(lines) + "\n")
print("\n".join(lines))

plot = """
set logscale xy 2
set xlabel 'ranks (simulated: hello, all-gather of an address, barrier)'
set ylabel 'bootstrap time (s), median of 5'
set key top left
set grid
set xtics (64, 256, 1024, 4096)
set xrange [48:5600]
set format y '%g'
plot 'scale.dat' using 1:2 with linespoints lw 2 pt 7 title 'alone', \\
     'scale.dat' using 1:3 with linespoints lw 2 pt 5 title 'beside 1,000 stalled connections', \\
     'scale.dat' using 1:4 with lines dt 2 lc rgb 'gray' title 'n', \\
     'scale.dat' using 1:5 with lines dt 3 lc rgb 'black' title 'n log n'
"""
for term, name in (("pngcairo size 800,520", "scale.png"), ("svg size 800,520", "scale.svg")):
    script = f"set terminal {term}\nset output '{name}'\nset title 'ccbench rendezvous store: bootstrap time against ranks'\n" + plot
    subprocess.run(["gnuplot"], input=script, text=True, cwd=out, check=True)
