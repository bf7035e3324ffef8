#!/usr/bin/env bash
# Faults on an emulated 3-host cluster (tools/netns/cluster), one at a time, injected
# into host 1 while a 64 MiB AllReduce loops: its cable pulled, 100% loss on it, the
# rank killed (SIGKILL), the rank stalled (SIGSTOP). Every surviving rank must exit
# non-zero naming rank 1, the sizes already measured must stay in the JSON, and no
# process may be left. Prints the time from the fault until the survivors are gone
# (a timing is printed, not asserted: tests assert, benchmarks measure). Then --transport
# shm across two hosts must be refused on every rank, exit 2, naming the hosts.
# Usage: cluster_faults_test.sh CCBENCH CLUSTER. Exit 77 (skip) without root or netns.
set -uo pipefail
ccbench=$1 cluster=$2
source "$(dirname "${BASH_SOURCE[0]}")/cluster_test_prologue.sh" ccbf 80
source "$(dirname "${BASH_SOURCE[0]}")/wait_for_result.sh"
failed=0 timeout_s=5

# fault NAME INJECT: runs the job, injects when the first size is on disk, checks.
fault() {
  local name=$1 inject=$2 out=$work/$1.txt json=$work/$1.json t0 t1 job
  c up --hosts 3 --rate 1gbit >/dev/null
  c run --port $((29800 + RANDOM % 100)) -- "$ccbench" run --sizes 256K,128M --algo ring \
    --timeout "$timeout_s" --json "$json" >"$out" 2>&1 &
  job=$!
  wait_for_result "$json" 300
  t0=$(date +%s.%N)
  eval "$inject"
  # Detection: until every surviving rank (hosts 0 and 2) is gone; a stalled rank 1
  # is then woken to find its peers gone.
  local waited=0
  while [[ -n "$(ip netns pids "${prefix}h0")$(ip netns pids "${prefix}h2")" && $waited -lt 600 ]]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  t1=$(date +%s.%N)
  [[ $name == stall ]] && kill -CONT $(ip netns pids "${prefix}h1") 2>/dev/null
  wait $job
  local status=$?
  local left
  left=$(for h in 0 1 2; do ip netns pids "${prefix}h$h" 2>/dev/null; done | wc -l)
  local ok=1 why=""
  [[ $status != 0 ]] || { ok=0; why+=" job exited 0;"; }
  grep -q "rank 1" "$out" || { ok=0; why+=" no error names rank 1;"; }
  [[ $(grep -c "exited with status [1-9]" "$out") -ge 2 ]] || { ok=0; why+=" survivors did not all fail;"; }
  python3 -c "import json,sys; j=json.load(open('$json')); sys.exit(0 if j['results'] and not j['complete'] else 1)" ||
    { ok=0; why+=" measured sizes lost;"; }
  [[ $left == 0 ]] || { ok=0; why+=" $left processes left;"; }
  printf "%-10s %s: the surviving ranks exited %.1f s after the fault (timeout %s s)%s\n" "$name" \
    "$([[ $ok == 1 ]] && echo ok || echo FAIL)" "$(echo "$t1 - $t0" | bc)" "$timeout_s" "${why:+:$why}"
  [[ $ok == 1 ]] || { failed=1; sed 's/^/    /' "$out"; }
  c down
}

fault link-down 'c link 1 down'
fault loss 'c loss 1 on'
fault kill 'kill -KILL $(ip netns pids ${prefix}h1)'
fault stall 'kill -STOP $(ip netns pids ${prefix}h1)'

# Bad input the hosts reveal: --transport shm across two hosts is one line on every rank,
# exit 2, as soon as the ranks know their hosts (before any connects).
# (By hand, not `cluster run`, which adds --iface: a TCP flag that shm refuses first.)
c up --hosts 2 --rate 1gbit >/dev/null
shm_rank() {
  c exec "$1" -- env CCB_RANK="$1" CCB_WORLD_SIZE=2 CCB_MASTER_ADDR=10.80.0.1 CCB_MASTER_PORT="$shm_port" \
    CCB_TOKEN=shm$$ "$ccbench" run --transport shm --sizes 1K --timeout 5
}
shm_port=$((29900 + RANDOM % 100))
shm_rank 1 >"$work/shm1.txt" 2>&1 &
shm_rank 0 >"$work/shm.txt" 2>&1
shm_status=$?
shm1_status=0
wait $! || shm1_status=$?
cat "$work/shm1.txt" >>"$work/shm.txt"
if [[ $shm_status == 2 && $shm1_status == 2 ]] && [[ $(grep -c "joins ranks of one host, but this job's ranks run on 2 hosts" "$work/shm.txt") -ge 2 ]]; then
  echo "shm across hosts: refused on both ranks, exit 2"
else
  echo "FAIL: --transport shm across hosts (exits $shm_status and $shm1_status):"; sed 's/^/    /' "$work/shm.txt"; failed=1
fi
c down
exit $failed
