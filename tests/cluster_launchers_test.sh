#!/usr/bin/env bash
# Real launchers across the 4 emulated hosts, running ccbench as installed (cmake
# --install into a private prefix), not from the build tree:
#  - `cluster slurm up`: a real Slurm, a slurmd per host; `srun -N 4 --ntasks-per-node=1
#    ccbench run` needs no variable of the user's, each task on its own host;
#  - `cluster mpirun`: Open MPI's daemons started through the namespace-entering agent;
#    the ranks bootstrap over MPI and move data over TCP between the hosts;
#  - bad input under srun: a CCB_MASTER_ADDR outside the job's nodes is one line, exit 2;
#  - `cluster slurm down` stops every daemon it started.
# Usage: cluster_launchers_test.sh BUILD_DIR CLUSTER. Exit 77 (skip) without root.
set -uo pipefail
build=$1 cluster=$2
source "$(dirname "${BASH_SOURCE[0]}")/cluster_test_prologue.sh" ccbl 82
trap 'c slurm down >/dev/null 2>&1; c down; rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/inst" >"$work/install.txt" 2>&1 || { cat "$work/install.txt"; fail "cmake --install"; }
ccbench=$work/inst/bin/ccbench
[[ -x $ccbench ]] || fail "cmake --install did not install bin/ccbench"
c up --hosts 4 --rate 2gbit >/dev/null || fail "cluster up"
c slurm up || fail "cluster slurm up"

hosts=$(c srun -- -N 4 --ntasks-per-node=1 hostname | sort -u | wc -l)
[[ $hosts == 4 ]] || fail "srun -N 4 ran on $hosts host names, not 4"
c srun -- -N 4 --ntasks-per-node=1 "$ccbench" run --sizes 1M,16M -n 5 --spin-us 0 --line-rate 2G \
  --json "$work/srun.json" >"$work/srun.txt" 2>&1 || { cat "$work/srun.txt"; fail "srun -N 4 ccbench run"; }
grep -q '"complete": true' "$work/srun.json" && grep -q "Out of bounds values : 0 OK" "$work/srun.txt" ||
  fail "srun -N 4: the record is incomplete or a result is wrong"
echo "srun -N 4 --ntasks-per-node=1 ccbench run: ok ($(grep -o 'Avg bus bandwidth.*' "$work/srun.txt"))"

c mpirun -- "$ccbench" run --sizes 1M,16M -n 5 --spin-us 0 --line-rate 2G --json "$work/mpirun.json" \
  >"$work/mpirun.txt" 2>&1 || { cat "$work/mpirun.txt"; fail "cluster mpirun ccbench run"; }
grep -q '"bootstrap": "mpi"' "$work/mpirun.json" && grep -q '"complete": true' "$work/mpirun.json" ||
  fail "mpirun: the record is incomplete or did not bootstrap over MPI"
grep -q "addr=10.82.0.1" "$work/mpirun.txt" || fail "mpirun: rank 0 did not advertise its cluster address"
echo "mpirun -np 4 across the hosts: ok ($(grep -o 'Avg bus bandwidth.*' "$work/mpirun.txt"))"

# --algo hier: two ranks a host, reduce-scatter over shm within, AllReduce across on
# each local rank's own connections, all-gather within; checked, with each leg's time.
c run --ranks-per-host 2 -- "$ccbench" run --algo hier --ranks-per-host 2 --sizes 1K,1M,4M -d int32 -n 5 --spin-us 0 \
  --json "$work/hier.json" >"$work/hier.txt" 2>&1 || { cat "$work/hier.txt"; fail "cluster run --ranks-per-host 2: --algo hier"; }
python3 - "$work/hier.json" <<'PY' || { cat "$work/hier.txt"; fail "--algo hier: wrong results, or no legs or layout in the record"; }
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["results"]
assert d["job"]["layout"]["ranks_per_host"] == 2, d["job"]["layout"]
assert all(r["algorithm"] == "hier" and r["wrong"] == 0 and r["legs_us"]["inter"] > 0 for r in rows), rows
PY
grep -q "^# hier 4 MiB: within the host .* us (reduce-scatter over shm) + across hosts" "$work/hier.txt" ||
  { cat "$work/hier.txt"; fail "--algo hier printed no legs"; }
c srun -- -N 2 --ntasks-per-node=2 "$ccbench" run --algo hier --sizes 1M -n 5 --spin-us 0 >"$work/hier-srun.txt" 2>&1 &&
  grep -q "Out of bounds values : 0 OK" "$work/hier-srun.txt" || { cat "$work/hier-srun.txt"; fail "srun --ntasks-per-node=2 --algo hier"; }
echo "--algo hier on 4 hosts of 2 ranks (cluster run) and 2 of 2 (srun, SLURM_LOCALID checked): ok"

c srun -- -N 2 --ntasks-per-node=1 --export=ALL,CCB_MASTER_ADDR=10.9.9.9 "$ccbench" run --sizes 1M \
  >"$work/bad.txt" 2>&1 && fail "a CCB_MASTER_ADDR outside the job was accepted"
grep -q "CCB_MASTER_ADDR=10.9.9.9 is not a node of this Slurm job" "$work/bad.txt" ||
  { cat "$work/bad.txt"; fail "the error does not name CCB_MASTER_ADDR and the job"; }
echo "srun with CCB_MASTER_ADDR outside the job: refused in one line"

c slurm down
sleep 0.5
left=$(pgrep -f "/run/ccbench-cluster/$prefix/" | wc -l)
[[ $left == 0 ]] || fail "cluster slurm down left $left processes"
echo "cluster slurm down: every daemon stopped"
echo "cluster_launchers: ok"
