#!/usr/bin/env bash
# Two ranks in two network namespaces over a tbf-shaped veth pair: the run must name the
# veth, take the rate from --line-rate (veth claims 10G), read the NIC counters over the
# window and report both utilizations. The figures themselves are checked by
# results/run-shaped-link.sh, not here: tests assert, benchmarks measure.
# Usage: shaped_link_test.sh CCBENCH SHAPED_PAIR. Exit 77 (skip) without root or netns.
set -euo pipefail
ccbench=$1 pair=$2
source "$(dirname "${BASH_SOURCE[0]}")/require_netns.sh"
prefix=ccbt$$ out=$(mktemp -d)
trap '"$pair" down --prefix $prefix; rm -rf "$out"' EXIT
"$pair" up --prefix "$prefix" --net 78 --rate 1gbit
env=(env CCB_WORLD_SIZE=2 CCB_MASTER_ADDR=10.78.0.1 CCB_MASTER_PORT=29555 CCB_TOKEN=shaped$$)
args=(run --line-rate 1G --sizes 4M -n 5 --algo ring --timeout 30)
"$pair" exec b --prefix "$prefix" -- "${env[@]}" CCB_RANK=1 "$ccbench" "${args[@]}" --iface "${prefix}b0" &
peer=$!
"$pair" exec a --prefix "$prefix" -- "${env[@]}" CCB_RANK=0 "$ccbench" "${args[@]}" --iface "${prefix}a0" --json "$out/r.json"
wait $peer
python3 - "$out/r.json" "$prefix" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); prefix = sys.argv[2]
job, r = j["job"], j["results"][0]
checks = {
    "complete": j["complete"] is True,
    "nic is the veth": job["nic"]["name"] == prefix + "a0" and job["nic"]["driver"] == "veth",
    "rate from --line-rate": job["line_rate_gbps"] == 1.0 and job["line_rate_source"] == "--line-rate",
    "no wrong results": r["wrong"] == 0,
    "busbw utilization reported": 0 < r["link_util_pct"] <= 110,
    "NIC counter read over the window": r["nic_counter"] is not None and r["nic_counter"]["bytes"] >= r["bytes"],
    "counter utilization reported": 0 < r["nic_counter"]["util_pct"] <= 110,
}
for name, ok in checks.items():
    print(("ok   " if ok else "FAIL ") + name)
sys.exit(0 if all(checks.values()) else 1)
PY
