#!/usr/bin/env python3
"""Checks a run-shaped-link.sh folder against issue 4's acceptance: on the shaped link,
the reported utilization (busbw x 8 / line rate) is within 5 points of the true share
(the NIC's own byte counter over the same window), and a large AllReduce (the largest
size, best algorithm) reaches at least 90% of the shaped rate. Prints a table and PASS/FAIL; exit 1 on FAIL."""
import json
import sys
from pathlib import Path

out = Path(sys.argv[1])
run = json.loads((out / "ccbench.json").read_text())
ok = True
print(f"line rate {run['job']['line_rate_gbps']} Gbit/s ({run['job']['line_rate_source']}), "
      f"NIC {run['job']['nic']['name']} ({run['job']['nic']['driver']}, reports "
      f"{run['job']['nic']['reported_rate_gbps']} Gbit/s)")
print(f"{'algo':5} {'size':>10} {'busbw GB/s':>10} {'util %':>7} {'counter %':>9} {'diff':>6}")
largest = {}
for r in run["results"]:
    util, counter = r["link_util_pct"], (r["nic_counter"] or {}).get("util_pct")
    diff = abs(util - counter) if counter is not None else float("inf")
    ok &= diff <= 5
    print(f"{r['algorithm']:5} {r['bytes']:>10} {r['busbw_gbps']:>10.4f} {util:>7.1f} "
          f"{counter if counter is not None else float('nan'):>9.1f} {diff:>6.2f}")
    if r["bytes"] >= largest.get(r["algorithm"], {"bytes": 0})["bytes"]:
        largest[r["algorithm"]] = r
for algo, r in largest.items():
    print(f"largest {algo} AllReduce ({r['bytes']} B): {r['link_util_pct']:.1f}% of the shaped rate")
best = max(r["link_util_pct"] for r in largest.values())
ok &= best >= 90
print(f"best large AllReduce: {best:.1f}% of the shaped rate ({'>=' if best >= 90 else '<'} 90%)")
bench = json.loads((out / "bench.json").read_text())
for b in bench["benchmarks"]:
    diff = abs(b["link_util_pct"] - b["counter_util_pct"])
    ok &= diff <= 5
    print(f"bench {b['name']}: util {b['link_util_pct']:.1f}%, counter {b['counter_util_pct']:.1f}%, "
          f"p50 {b['p50_us']:.0f} us, p99 {b['p99_us']:.0f} us")
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
