#!/usr/bin/env bash
# ccbench under a real Slurm on this one node (Debian's slurmctld, slurmd and munge,
# 22.05), started here as root with a private munge key, socket and slurm.conf, and
# stopped by the PIDs this script started. No CCB_* variable is set: srun alone must do.
#  - srun -n 2 ccbench run, and srun -n 4 ccbench run --profile llama2-7b:ddp;
#  - two srun jobs started at the same moment, each with its own results;
#  - scancel of a running job: every rank gone within 5 s, the record kept with the
#    finished sizes and "complete": false.
# Usage: slurm_test.sh CCBENCH
set -euo pipefail
ccbench=$(readlink -f "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for tool in munged mungekey slurmctld slurmd srun sbatch squeue scancel sinfo python3; do
  command -v "$tool" >/dev/null || {
    echo "slurm_test: $tool is missing: tools/install-deps.sh installs slurmctld slurmd slurm-client munge" >&2
    exit 1
  }
done
dir=$(mktemp -d /tmp/ccb-slurm-XXXXXX)
chmod 755 "$dir"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  # A step still running when the test failed outlives slurmd: its slurmstepd carries
  # this Slurm's SLURM_CONF in its environment.
  for p in $(pgrep -x slurmstepd; pgrep -f '^slurmstepd:'); do
    grep -qzx "SLURM_CONF=$dir/slurm.conf" "/proc/$p/environ" 2>/dev/null && kill -9 "$p" 2>/dev/null
  done
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "slurm_test: FAIL: $*" >&2
  for log in "$dir"/*.log; do echo "== $log" >&2; tail -n 5 "$log" >&2; done
  exit 1
}
# The daemons' own last complaints, which say why a node stays down.
daemon_errors() {
  grep -hiE 'error|fatal|unable' "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/*.out 2>/dev/null | tail -n 3 | tr '\n' ' '
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mungekey -c -k "$dir/munge.key"
munged -F --force --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge.seed" >"$dir/munged.out" 2>&1 &
pids+=($!)
host=$(hostname)
# slurmctld and slurmd resolve the node's name; where it does not resolve (a namespace
# with loopback alone and no /etc/hosts line) they never come up, so say so at once.
timeout 5 getent hosts "$host" >/dev/null ||
  fail "this host's name '$host' does not resolve (getent hosts $host), so slurmctld cannot start: add '127.0.1.1 $host' to /etc/hosts"
cat >"$dir/slurm.conf" <<CONF
ClusterName=ccbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/slurmd-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
mkdir -p "$dir/ctld"
export SLURM_CONF=$dir/slurm.conf
for v in $(env | grep -oE '^(CCB_[A-Z_]+|MASTER_ADDR|MASTER_PORT)='); do unset "${v%=}"; done
slurmctld -D -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
pids+=($!)
node_state() { timeout 5 sinfo -h -o %t 2>/dev/null; }
for _ in $(seq 60); do
  [[ $(node_state) == idle ]] && break
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || fail "a Slurm daemon exited: $(daemon_errors)"; done
  sleep 0.5
done
[[ $(node_state) == idle ]] || fail "the node did not come up in 30 s: $(daemon_errors)"
cd "$dir"

timeout 120 srun -n 2 "$ccbench" run --sizes 64K,1M -n 3 --json "$dir/two.json" >"$dir/two.log" 2>&1 ||
  fail "srun -n 2 ccbench run: $(tail -n 1 "$dir/two.log")"
grep -q '"complete": true' "$dir/two.json" || fail "srun -n 2: the record is not complete"
echo "slurm_test: srun -n 2 ccbench run: ok"
timeout 600 srun -n 4 "$ccbench" run --profile llama2-7b:ddp -n 1 -w 0 --spin-us 0 >"$dir/four.log" 2>&1 ||
  fail "srun -n 4 ccbench run --profile llama2-7b:ddp: $(tail -n 1 "$dir/four.log")"
grep -q "llama2-7b:ddp (auto):" "$dir/four.log" || fail "srun -n 4: no step line"
echo "slurm_test: srun -n 4 ccbench run --profile llama2-7b:ddp: ok"

# Two jobs at the same moment: each its own port (from its job id), each its results.
timeout 120 srun -n 2 "$ccbench" run --sizes 1M -n 20 --json "$dir/j1.json" >"$dir/j1.log" 2>&1 &
j1=$!
timeout 120 srun -n 2 "$ccbench" run --sizes 1M -n 20 --json "$dir/j2.json" >"$dir/j2.log" 2>&1 &
j2=$!
wait "$j1" || fail "the first of two jobs: $(tail -n 1 "$dir/j1.log")"
wait "$j2" || fail "the second of two jobs: $(tail -n 1 "$dir/j2.log")"
grep -q '"complete": true' "$dir/j1.json" && grep -q '"complete": true' "$dir/j2.json" || fail "two jobs: a record is incomplete"
echo "slurm_test: two jobs at once: ok"

# scancel while the third size runs: the record keeps the first two.
srun -J ccb-cancel -n 2 "$ccbench" run --sizes 64K,128K,256M -n 40 -w 0 --json "$dir/cancel.json" >"$dir/cancel.log" 2>&1 &
canceled=$!
for _ in $(seq 200); do
  grep -q '"bytes": 131072' "$dir/cancel.json" 2>/dev/null && break
  sleep 0.1
done
grep -q '"bytes": 131072' "$dir/cancel.json" || fail "the job to cancel did not measure its first sizes"
scancel -n ccb-cancel
start=$(date +%s%N)
for _ in $(seq 50); do
  pgrep -f -- "--json $dir/cancel.json" >/dev/null || break
  sleep 0.1
done
! pgrep -f -- "--json $dir/cancel.json" >/dev/null || fail "ranks still run 5 s after scancel"
gone_ms=$((($(date +%s%N) - start) / 1000000))
wait "$canceled" || true
grep -q '"complete": false' "$dir/cancel.json" && grep -q '"bytes": 65536' "$dir/cancel.json" ||
  fail "after scancel the record must keep the finished sizes with \"complete\": false"
echo "slurm_test: scancel: every rank gone within ${gone_ms} ms, the finished sizes kept: ok"
# The nightly sbatch script, twice: the first night is its own baseline (exit 0); the
# second is judged against a baseline 3x as fast and must exit 1 with a report. A slowed
# night made by load (a CPU hog) is a timed assertion: on a busy machine it did not
# slow enough to be significant. The baseline's passes are scaled instead, top level too.
nightly() {
  CCBENCH=$ccbench CCB_NIGHTLY_DIR=$dir/lab CCB_NIGHTLY_SIZES=64K,1M CCB_NIGHTLY_PROFILE=gpt2-xl:tp \
    CCB_NIGHTLY_REPEAT=5 CCB_NIGHTLY_ARGS="-n 3 -w 1" timeout 600 sbatch --wait --output="$dir/nightly-%j.log" "$here/../tools/slurm/nightly.sbatch" >/dev/null
}
nightly || fail "the first nightly run must exit 0 against its own baseline: $(tail -n 3 "$dir"/nightly-*.log)"
python3 - "$dir"/lab/baseline/*.json <<'PY' || fail "could not scale the baseline"
import json, sys
def faster(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("busbw_gbps", "algbw_gbps") and isinstance(v, (int, float)): node[k] = v * 3
            elif (k.endswith("_us") or k in ("p50", "p99", "min", "max", "mean")) and isinstance(v, (int, float)): node[k] = v / 3
            elif k == "samples_us" and isinstance(v, list): node[k] = [x / 3 for x in v]
            else: faster(v)
    elif isinstance(node, list):
        for v in node: faster(v)
for path in sys.argv[1:]:
    d = json.load(open(path))
    faster(d["results"])
    json.dump(d, open(path, "w"))
PY
set +e
nightly
second=$?
set -e
[[ $second == 1 ]] || fail "the nightly run against a 3x faster baseline must exit 1, not $second: $(tail -n 3 "$dir"/nightly-*.log)"
ls "$dir"/lab/reports/*-sweep/index.html >/dev/null && grep -qE "(^|[^0-9])[1-9][0-9]* regression" "$dir"/lab/nights/*/compare-*.md ||
  fail "the second night has no report or no regression in its Markdown"
echo "slurm_test: the nightly sbatch script: 0 against its own baseline, 1 against a 3x faster one: ok"
echo "slurm_test: ok"
