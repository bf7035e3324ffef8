#!/usr/bin/env bash
# Verbs across a cable, inside the soft-RoCE VM (run by ctest through tools/rxe-vm/rxe-run):
# tools/rxe-vm/rxe-wire joins rxeA and rxeB by a veth shaped to 1 Gbit/s. Two ranks, one
# per device, must get right results with their bytes on the cable (not on lo), and when
# the cable is pulled mid-run both must exit non-zero within about --timeout, naming the
# peer, with the size already measured kept in the JSON. Times are printed, not asserted.
# Usage: verbs_wire_test.sh CCBENCH RXE_WIRE
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/wait_for_result.sh"
ccbench=$1 wire=$2 work=$(mktemp -d) failed=0
trap '"$wire" down; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; failed=1; }
sent() { cat /sys/class/net/rw0/statistics/tx_bytes; }

rank() {  # rank R DEV ARGS...: env launch, rank 0's store on loopback
  local r=$1 dev=$2
  shift 2
  CCB_RANK=$r CCB_WORLD_SIZE=2 CCB_MASTER_ADDR=127.0.0.1 CCB_MASTER_PORT=$port CCB_TOKEN=wire$$ \
    "$ccbench" run --transport verbs --ib-dev "$dev" "$@"
}

"$wire" up --rate 1gbit || { echo "FAIL: rxe-wire up"; exit 1; }
port=$((29500 + RANDOM % 100))
before=$(sent)
rank 1 rxeB --sizes 4M --algo ring -n 3 -w 1 >"$work/r1.txt" 2>&1 &
rank 0 rxeA --sizes 4M --algo ring -n 3 -w 1 >"$work/r0.txt" 2>&1 || fail "rank 0 over the cable: $(tail -n 2 "$work/r0.txt")"
wait $! || fail "rank 1 over the cable: $(tail -n 2 "$work/r1.txt")"
grep -q "Out of bounds values : 0 OK" "$work/r0.txt" || fail "wrong results over the cable"
grep -q "verbs rxeA:1 gid\[[0-9]*\]=::ffff:10.82.0.1" "$work/r0.txt" || fail "rank 0 did not use rxeA's IPv4 GID"
crossed=$(( $(sent) - before ))
echo "4 MiB ring AllReduce x4 over the cable: rw0 sent $crossed bytes"
[[ $crossed -ge $((4 * 4 << 20)) ]] || fail "only $crossed bytes crossed the cable: the traffic went elsewhere"

port=$((29600 + RANDOM % 100))
rank 1 rxeB --sizes 256K,64M --algo ring -n 20 -w 1 --timeout 5 --json "$work/r1.json" >"$work/f1.txt" 2>&1 &
p1=$!
rank 0 rxeA --sizes 256K,64M --algo ring -n 20 -w 1 --timeout 5 --json "$work/r0.json" >"$work/f0.txt" 2>&1 &
p0=$!
wait_for_result "$work/r0.json"
t0=$(date +%s.%N)
"$wire" link down
s0=0 s1=0
wait $p0 || s0=$?
t1=$(date +%s.%N)
wait $p1 || s1=$?
t2=$(date +%s.%N)
printf 'cable pulled: rank 0 exited %.1f s after, rank 1 %.1f s after (timeout 5 s)\n' \
  "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t0" | bc)"
[[ $s0 != 0 && $s1 != 0 ]] || fail "a rank exited 0 after the cable was pulled ($s0, $s1)"
grep -q "rank 1" "$work/f0.txt" || fail "rank 0's error does not name rank 1: $(tail -n 1 "$work/f0.txt")"
grep -q "rank 0" "$work/f1.txt" || fail "rank 1's error does not name rank 0: $(tail -n 1 "$work/f1.txt")"
echo "rank 0: $(grep -m1 -i error "$work/f0.txt")"
python3 -c "import json; r=json.load(open('$work/r0.json'))['results']; assert r and r[0]['bytes']==262144" ||
  fail "the 256 KiB result was not kept in rank 0's JSON"
[[ $failed == 0 ]] && echo PASS
exit $failed
