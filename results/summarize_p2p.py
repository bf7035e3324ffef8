#!/usr/bin/env python3
"""Summarizes results/run-p2p-vs-perftest.sh: ccbench p2p against perftest and iperf3,
with the ratios. perftest's BW average is Gbit/s (--report_gbits); its latency columns
are one-way (half the round trip), as ccbench p2p --test lat prints them."""
import json, re, sys
from pathlib import Path

out = Path(sys.argv[1])
raw = out / "raw"


def perftest_bw(path):
    for line in path.read_text().splitlines():
        f = line.split()
        if len(f) >= 5 and f[0].isdigit() and f[1].isdigit():
            return float(f[3])  # BW average [Gb/sec]
    return None


def perftest_lat(path):
    for line in path.read_text().splitlines():
        f = line.split()
        if len(f) >= 9 and f[0].isdigit() and f[1].isdigit():
            return float(f[4])  # t_typical [usec]: the median
    return None


def ccbench(path):
    rows = {}
    for r in json.loads(path.read_text())["results"]:
        rows[r["bytes"]] = r
    return rows


lines = ["# ccbench p2p beside perftest (soft-RoCE VM) and iperf3 (host loopback)", ""]
bw, bidir, lat, bw_poll, lat_poll = (ccbench(raw / f"ccbench-{k}.json") for k in ("bw", "bidir", "lat", "bw-poll", "lat-poll"))
lines.append(f"{'size':>9} {'ib_write_bw':>12} {'p2p bw':>9} {'ratio':>6} {'poll':>7} {'ratio':>6} {'ib_write_bw -b':>15} {'p2p bidir':>10} {'ratio':>6}   (Gbit/s)")
for s in (65536, 1048576, 8388608):
    pw, pb = perftest_bw(raw / f"ib_write_bw-{s}.txt"), perftest_bw(raw / f"ib_write_bw-b-{s}.txt")
    cw, cp, cb = bw[s]["algbw_gbps"] * 8, bw_poll[s]["algbw_gbps"] * 8, bidir[s]["busbw_gbps"] * 8
    lines.append(f"{s:>9} {pw or 0:>12.3f} {cw:>9.3f} {cw / pw if pw else 0:>6.2f} {cp:>7.3f} {cp / pw if pw else 0:>6.2f} "
                 f"{pb or 0:>15.3f} {cb:>10.3f} {cb / pb if pb else 0:>6.2f}")
lines += ["", f"{'size':>9} {'ib_write_lat':>13} {'p2p lat':>8} {'ratio':>6} {'poll':>8} {'ratio':>6}   (one-way median, us)"]
for s in (8, 4096, 65536):
    pl = perftest_lat(raw / f"ib_write_lat-{s}.txt")
    cl, cp = lat[s]["latency_us"]["p50"] / 2, lat_poll[s]["latency_us"]["p50"] / 2
    lines.append(f"{s:>9} {pl or 0:>13.2f} {cl:>8.2f} {cl / pl if pl else 0:>6.2f} {cp:>8.2f} {cp / pl if pl else 0:>6.2f}")
ip = json.loads((raw / "iperf3.json").read_text())["end"]["sum_received"]["bits_per_second"] / 1e9
tcp = ccbench(raw / "ccbench-tcp-bw.json")
lines += ["", f"iperf3 one stream, 10 s: {ip:.2f} Gbit/s"]
for s, r in sorted(tcp.items()):
    g = r["algbw_gbps"] * 8
    lines.append(f"ccbench p2p --test bw {s >> 20} MiB x 16: {g:.2f} Gbit/s, {g / ip:.2f} of iperf3")
print("\n".join(lines))
