#!/usr/bin/env bash
# Rails on 2 emulated hosts, each with 2 cables to 2 switches (cluster up --rails 2), 2
# ranks a host; cluster run names both rails in --iface and ccbench gives local rank L
# rail L:
#  - --algo hier AllReduce is bit-exact; the record's layout puts each local rank on its
#    own cable, and the table names the rails;
#  - the interface counters show each cable carrying its rank's inter-host bytes, within
#    10% of each other, and the record's per-NIC bytes agree;
#  - a flat ring, whose pairs cross rails, still runs; --algo auto runs hier for a large
#    message and flat for a small one; hier ReduceScatter, AllGather and Broadcast are
#    bit-exact; --parallel tp=2,dp=2 runs TP within each host over shm and DP on the rails;
#    study --ranks-per-host 2 runs its profile's AllReduce as hier;
#  - a rail that is missing or down: one line, exit 2, before any rank starts (or, when
#    ranks start by themselves, the job ends naming it).
# Usage: cluster_rails_test.sh CCBENCH CLUSTER. Exit 77 (skip) without root.
set -uo pipefail
ccbench=$1 cluster=$2
source "$(dirname "${BASH_SOURCE[0]}")/cluster_test_prologue.sh" ccbr 83
# What each cable's host end has sent: h0e h0e1 h1e h1e1.
sent() {
  local i k dev
  for i in 0 1; do
    for k in "" 1; do
      dev=${prefix}h${i}e$k
      c exec "$i" -- cat "/sys/class/net/$dev/statistics/tx_bytes"
    done
  done | tr '\n' ' '
}

c up --hosts 2 --rails 2 --rate 2gbit >/dev/null || fail "cluster up --rails 2"
before=$(sent)
c run --ranks-per-host 2 -- "$ccbench" run --algo hier --ranks-per-host 2 --sizes 16M -d int32 -n 5 --spin-us 0 \
  --json "$work/rails.json" >"$work/rails.txt" 2>&1 || { cat "$work/rails.txt"; fail "--algo hier over 2 rails"; }
after=$(sent)
grep -q "Out of bounds values : 0 OK" "$work/rails.txt" || { cat "$work/rails.txt"; fail "--algo hier over 2 rails: wrong results"; }
# cluster run keeps the machine's host name in every namespace: the second reads "name#2".
grep -qE "^# rails: [^:]+: rank 0 ${prefix}h0e, rank 1 ${prefix}h0e1; [^:]+#2: rank 2 ${prefix}h1e, rank 3 ${prefix}h1e1$" "$work/rails.txt" ||
  { cat "$work/rails.txt"; fail "the table does not name each rank's rail"; }
grep -q "^# hier 16 MiB: sent by each NIC " "$work/rails.txt" || { cat "$work/rails.txt"; fail "the table gives no bytes per NIC"; }
python3 - "$work/rails.json" "$prefix" "$before" "$after" <<'PY' || { cat "$work/rails.txt"; fail "rails: layout, counters or per-NIC bytes"; }
import json, sys
d, prefix = json.load(open(sys.argv[1])), sys.argv[2]
before, after = (list(map(int, a.split())) for a in sys.argv[3:5])
nics = [r["nic"] for r in d["job"]["layout"]["ranks"]]
assert nics == [f"{prefix}h0e", f"{prefix}h0e1", f"{prefix}h1e", f"{prefix}h1e1"], nics
cables = [b - a for a, b in zip(before, after)]
# Each local rank's AllReduce across hosts moves half of 16 MiB, 8 MiB a call each way,
# over at least the 5 timed calls.
assert min(cables) >= 5 * 8 << 20, f"a cable carried too little: {cables}"
assert max(cables) <= 1.1 * min(cables), f"the cables differ by more than 10%: {cables}"
row = d["results"][0]
assert row["wrong"] == 0 and row["algorithm"] == "hier", row
per_nic = [n["bytes"] for n in row["nic_counter"]["per_nic"]]
assert [n["rank"] for n in row["nic_counter"]["per_nic"]] == [0, 1, 2, 3], row["nic_counter"]
assert max(per_nic) <= 1.1 * min(per_nic), f"the record's per-NIC bytes differ by more than 10%: {per_nic}"
print(f"rails: the cables sent {', '.join(f'{c / 1e6:.1f} MB' for c in cables)}; the record's timed window {per_nic}")
PY
echo "--algo hier over 2 rails: bit-exact, each cable its rank's bytes: ok"

c run --ranks-per-host 2 -- "$ccbench" run --algo ring --sizes 1M -n 3 --spin-us 0 >"$work/ring.txt" 2>&1 &&
  grep -q "Out of bounds values : 0 OK" "$work/ring.txt" || { cat "$work/ring.txt"; fail "a flat ring across rails"; }
echo "a flat ring whose pairs cross rails: ok"

# auto: flat for a small message, hier for a large one, each row saying which ran.
c run --ranks-per-host 2 -- "$ccbench" run --algo auto --sizes 1K,16M -d int32 -n 3 --spin-us 0 --json "$work/auto.json" \
  >"$work/auto.txt" 2>&1 && grep -q "Out of bounds values : 0 OK" "$work/auto.txt" || { cat "$work/auto.txt"; fail "--algo auto over 2 rails"; }
python3 - "$work/auto.json" <<'PY' || { cat "$work/auto.txt"; fail "--algo auto across hosts did not choose hier for 16 MiB alone"; }
import json, sys
rows = {r["bytes"]: r for r in json.load(open(sys.argv[1]))["results"]}
assert rows[1024]["algorithm"] != "hier" and "legs_us" not in rows[1024], rows[1024]
assert rows[16 << 20]["algorithm"] == "hier" and rows[16 << 20]["legs_us"]["inter"] > 0, rows[16 << 20]
PY
echo "--algo auto across hosts: hier for 16 MiB, flat for 1 KiB: ok"

for coll in "reduce_scatter -o avg" "all_gather --in-place" "broadcast --root 3"; do
  # shellcheck disable=SC2086
  c run --ranks-per-host 2 -- "$ccbench" run --algo hier --collective $coll --sizes 1K,1M -d int32 -n 3 --spin-us 0 \
    >"$work/coll.txt" 2>&1 && grep -q "Out of bounds values : 0 OK" "$work/coll.txt" ||
    { cat "$work/coll.txt"; fail "--algo hier --collective $coll over 2 rails"; }
done
echo "--algo hier ReduceScatter, AllGather and Broadcast over 2 rails: bit-exact: ok"

# --parallel tp=2,dp=2: each TP group on one host over shm, each DP group across hosts.
cat >"$work/tiny.json" <<'JSON'
{"name": "llama-tiny", "hidden": 64, "layers": 4, "ffn": 128, "heads": 4, "vocab": 100, "seq": 16, "micro_batches": 2}
JSON
c run --ranks-per-host 2 -- "$ccbench" run --profile "$work/tiny.json" --parallel tp=2,dp=2 --ranks-per-host 2 \
  --trace-passes 1 --spin-us 0 --json "$work/parallel.json" >"$work/parallel.txt" 2>&1 && grep -q "#wrong 0" "$work/parallel.txt" ||
  { cat "$work/parallel.txt"; fail "--parallel tp=2,dp=2 on 2 hosts"; }
grep -qE "^  tp +2 .*  shm, within each host$" "$work/parallel.txt" &&
  grep -qE "^  dp +2 .*  tcp, across hosts, each rank on its rail$" "$work/parallel.txt" ||
  { cat "$work/parallel.txt"; fail "--parallel: the step table does not show TP on shm and DP on the rails"; }
grep -q 'over shm, within each host' "$work/parallel.json" ||
  { cat "$work/parallel.txt"; fail "--parallel: the record does not say what TP ran on"; }
echo "--parallel tp=2,dp=2: TP within each host over shm, DP across hosts on the rails: ok"

# study --ranks-per-host 2: each profile's AllReduce runs in two levels, as auto does in run.
c run --ranks-per-host 2 -- "$ccbench" study --transports tcp --profile "$work/tiny.json:ddp" --ranks-per-host 2 \
  -n 3 --spin-us 0 --out "$work/study" >"$work/study.txt" 2>&1 && grep -q "#wrong" "$work/study.txt" ||
  { cat "$work/study.txt"; fail "study --ranks-per-host 2 on 2 hosts"; }
grep -qE "^ +allreduce +1 .* hier .* 0$" "$work/study.txt" && grep -q '"algorithm": "hier"' "$work/study/tcp.json" &&
  [ -s "$work/study/study.json" ] || { cat "$work/study.txt"; fail "study --ranks-per-host 2: the profile's AllReduce did not run as hier"; }
echo "study --ranks-per-host 2: the profile's AllReduce in two levels, the study written: ok"

c exec 0 -- "$ccbench" run --np 2 --sizes 1K -n 2 --iface "${prefix}h0e,${prefix}h0e7" >"$work/missing.txt" 2>&1
status=$?
[[ $status == 2 ]] && grep -q "no network interface named '${prefix}h0e7'" "$work/missing.txt" && [[ $(wc -l <"$work/missing.txt") == 1 ]] ||
  { cat "$work/missing.txt"; fail "a missing rail: exit $status, not one line and exit 2"; }
c link 0 down 1
c exec 0 -- "$ccbench" run --np 2 --sizes 1K -n 2 --iface "${prefix}h0e,${prefix}h0e1" >"$work/down.txt" 2>&1
status=$?
[[ $status == 2 ]] && grep -q "interface ${prefix}h0e1 is down" "$work/down.txt" && [[ $(wc -l <"$work/down.txt") == 1 ]] ||
  { cat "$work/down.txt"; fail "a rail that is down: exit $status, not one line and exit 2"; }
timeout 60 "$cluster" run --prefix "$prefix" --net 83 --ranks-per-host 2 -- "$ccbench" run --algo hier --sizes 1K -n 2 \
  --timeout 20 >"$work/down-run.txt" 2>&1 && fail "a job with a rail down ran"
grep -q "interface ${prefix}h0e1 is down" "$work/down-run.txt" || { cat "$work/down-run.txt"; fail "the job did not name the rail that is down"; }
echo "a missing rail, a rail that is down: refused in one line, naming it: ok"
echo "cluster_rails: ok"
