#!/usr/bin/env bash
# The emulated cluster's --delay and --loss on this kernel (ccb-delay-queue and
# nftables where netem is missing): 2 hosts with 5 ms per cable end, so 10 ms host to
# host, and 1% loss, which TCP must repair without a wrong result. An 8-byte ring
# AllReduce on 2 ranks has each rank wait for the other's data, one crossing at least,
# so no iteration can finish in under 10 ms: a delay that leaks (packets released
# early, or not queued at all) shows as a faster minimum. This is the emulator's
# correctness (a lower bound physics sets), not a speed target. Also: the results are
# right, every packet went through the queue, some were dropped, and `down` leaves no
# process.
# Usage: cluster_delay_test.sh CCBENCH CLUSTER DELAY_QUEUE. Exit 77 (skip) without root.
set -uo pipefail
ccbench=$1 cluster=$2
export CCB_DELAY_QUEUE=$3
source "$(dirname "${BASH_SOURCE[0]}")/cluster_test_prologue.sh" ccbd 81
[[ -x $CCB_DELAY_QUEUE ]] || { echo "skipped: ccb-delay-queue not built (libnetfilter-queue-dev missing)"; exit 77; }

c up --hosts 2 --rate 1gbit --delay 5ms --loss 1% || fail "cluster up --delay 5ms --loss 1%"
c run --port $((29700 + RANDOM % 100)) -- "$ccbench" run --sizes 8,1M --algo ring -n 20 -w 2 \
  --json "$work/r.json" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "the run over delayed links failed"; }
grep -q "Out of bounds values : 0 OK" "$work/out.txt" || { cat "$work/out.txt"; fail "wrong results"; }
min_us=$(python3 -c "import json; r=json.load(open('$work/r.json'))['results'][0]; print(int(r['latency_us']['min']))")
echo "8-byte AllReduce, 2 hosts, 10 ms apart: fastest iteration ${min_us} us"
[[ $min_us -ge 10000 ]] || fail "an iteration took ${min_us} us, under the 10 ms the links must add"
queued=$(ip netns exec "${prefix}h0" iptables -L INPUT -v -x -n | awk '/NFQUEUE/ {print $1}')
if ! tc qdisc add dev lo root netem delay 1ms 2>/dev/null; then
  [[ ${queued:-0} -gt 0 ]] || fail "no packet went through host 0's NFQUEUE"
  echo "host 0 received ${queued} packets through ccb-delay-queue"
  dropped=0
  for h in 0 1; do
    n=$(ip netns exec "${prefix}h$h" nft list table inet ccbrandomloss | grep -o 'packets [0-9]*' | awk '{s += $2} END {print s + 0}')
    dropped=$((dropped + n))
  done
  [[ $dropped -gt 0 ]] || fail "--loss 1% dropped nothing"
  echo "--loss 1%: $dropped packets dropped, results still right"
else
  tc qdisc del dev lo root 2>/dev/null
  echo "this kernel has netem; the cluster used it"
fi
pids=$(cat /run/ccbench-cluster/"$prefix"/*.pid 2>/dev/null)
c down
for p in $pids; do
  [[ -r /proc/$p/stat && $(awk '{print $3}' "/proc/$p/stat") != Z ]] && fail "ccb-delay-queue $p outlived 'cluster down'"
done
echo "PASS"
