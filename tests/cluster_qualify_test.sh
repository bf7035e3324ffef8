#!/usr/bin/env bash
# `ccbench scan`, `ccbench run --hops` and `ccbench qualify` on the emulated 4-host
# cluster: with host 2's cable at 60% of the others the scan names host 2 and exits 1,
# the ring's slowest hop goes into or out of host 2, a straggler, and qualify fails,
# naming host 2 and the rule; with equal cables the scan and qualify pass and no hop is
# a straggler; with 5 ms held on what host 1 receives the scan names host 1 for
# latency; the shipped specs/tcp.yaml (its soak cut to 5 s), given the cables' 2G rate,
# fails its line-rate rule by name on the slowed host's cable. The verdicts are what is asserted, never a speed. --spin-us 0: four ranks share this machine's cores, and a rank that
# busy-polls would hold the core its peer needs.
# Usage: cluster_qualify_test.sh CCBENCH CLUSTER DELAY_QUEUE SPEC SHIPPED_TCP_SPEC. Exit 77 (skip) without root.
set -uo pipefail
ccbench=$1 cluster=$2 spec=$4 shipped=$5
export CCB_DELAY_QUEUE=$3
source "$(dirname "${BASH_SOURCE[0]}")/cluster_test_prologue.sh" ccbs 82

# scan NAME EXPECTED_STATUS: runs the scan, keeps its output in $work/NAME.txt.
# --lat-factor 5: with four sleeping ranks on two cores, a pair's ping-pong takes 14 or
# 45 us one way as the scheduler places its two ranks (seen here with this build and
# 873b1cb's alike, 2026-12-08), which is the machine's, not a cable's; the 5 ms host
# below is 300 times the minimum.
scan() {
  local name=$1 expected=$2 status=0
  c run --port $((29800 + RANDOM % 100)) -- "$ccbench" scan --spin-us 0 --bw-iters 10 --lat-iters 100 --lat-factor 5 \
    --json "$work/$name.json" >"$work/$name.txt" 2>&1 || status=$?
  grep "^scan:" "$work/$name.txt"
  [[ $status == "$expected" ]] || { cat "$work/$name.txt"; fail "$name: scan exited $status, not $expected"; }
}

c up --hosts 4 --rate 2gbit --host-rate 2=1200mbit >/dev/null || fail "cluster up --host-rate 2=1200mbit"
scan slow-host 1
grep -q "scan: FAIL: host rank 2 (host .*ccbs$$h2e) is slow with every peer (bandwidth" "$work/slow-host.txt" ||
  fail "the scan did not name host 2"
[[ $(grep -c "^scan: FAIL" "$work/slow-host.txt") == 1 ]] || fail "the scan blamed more than host 2"
python3 -c "import json; d = json.load(open('$work/slow-host.json')); assert d['bad_hosts'] == [2] and not d['pass'], d" ||
  fail "the JSON does not name host 2"

# hops NAME [FLAGS]: a ring AllReduce with --hops; its slowest-hop line in $work/NAME-hops.txt.
hops() {
  local name=$1
  shift
  c run --port $((29800 + RANDOM % 100)) -- "$ccbench" run --algo ring --sizes 16M -n 8 --hops --spin-us 0 "$@" \
    >"$work/$name-hops.txt" 2>&1 || { cat "$work/$name-hops.txt"; fail "$name: the --hops run failed"; }
  grep "slowest hop" "$work/$name-hops.txt"
}
# qualify NAME EXPECTED_STATUS: the spec's battery; its verdicts in $work/NAME-qualify.txt.
qualify() {
  local status=0
  c run --port $((29800 + RANDOM % 100)) -- "$ccbench" qualify --spec "$spec" ${qualify_rate:+--line-rate $qualify_rate} --spin-us 0 --junit "$work/$1.xml" \
    >"$work/$1-qualify.txt" 2>&1 || status=$?
  grep -E "^(FAIL|qualify:)" "$work/$1-qualify.txt"
  [[ $status == "$2" ]] || { cat "$work/$1-qualify.txt"; fail "$1: qualify exited $status, not $2"; }
}
hops slow-host
qualify slow-host 1
grep -q "^FAIL  scan: no slow host or cable .*host rank 2 (host .*ccbs$$h2e) is slow with every peer (bandwidth[a-z ]*).*rule: bandwidth below 0.93 x the median" \
  "$work/slow-host-qualify.txt" || fail "qualify did not fail naming host 2 and the rule"
grep -q "<failure" "$work/slow-host.xml" || fail "the JUnit XML holds no failure"
sed 's/^  - soak: 60s$/  - soak: 5s/' "$shipped" >"$work/tcp.yaml"
grep -q "soak: 5s" "$work/tcp.yaml" || fail "the shipped spec's soak is no longer 60s: update this test"
spec=$work/tcp.yaml qualify_rate=2G qualify shipped-slow 1
grep -q "^FAIL  one way, 90% of the line rate (line [0-9]*): p2p_bw" "$work/shipped-slow-qualify.txt" ||
  fail "the shipped TCP spec did not fail its line-rate rule on the slowed cable"
grep -Eq "slowest hop: rank (1 .*ccbs$$h1e.* -> rank 2|2 .*ccbs$$h2e.* -> rank 3).*: a straggler" "$work/slow-host-hops.txt" ||
  fail "--hops did not name a hop into or out of host 2 as a straggler"

c up --hosts 4 --rate 2gbit >/dev/null || fail "cluster up"
# Equal cables on this 2-core machine put the slowest of 4 hops at up to 1.5x the median
# (seen once in CI); the slowed cable above gives 2.1x. A factor between keeps noise out.
hops equal --hop-factor 1.8
qualify equal 0
grep -q "^qualify: PASS" "$work/equal-qualify.txt" || fail "qualify did not pass equal cables"
grep -q "no straggler above" "$work/equal-hops.txt" || fail "--hops called a straggler on equal cables"
scan equal 0
grep -q "^scan: PASS: 6 pairs" "$work/equal.txt" || fail "equal cables did not pass"

if [[ -x $CCB_DELAY_QUEUE ]] || tc qdisc add dev lo root netem delay 1ms 2>/dev/null; then
  tc qdisc del dev lo root 2>/dev/null
  c up --hosts 4 --rate 2gbit --host-delay 1=5ms >/dev/null || fail "cluster up --host-delay 1=5ms"
  scan delayed-host 1
  grep -q "scan: FAIL: host rank 1 (host .*) is slow with every peer (latency)" "$work/delayed-host.txt" ||
    fail "the scan did not flag host 1's latency"
else
  echo "no netem and no ccb-delay-queue: the delayed host is not tried"
fi
echo "PASS"
