#!/usr/bin/env bash
# Runs inside the soft-RoCE VM, started by results/run-p2p-vs-perftest.sh:
#   p2p_guest.sh OUTDIR CCBENCH
# ib_write_bw (one way, -b both ways) and ib_write_lat beside ccbench p2p over verbs at
# the same sizes and the same depth (perftest -t 64, ccbench --window 64).
set -uo pipefail
out="$1" ccbench="$2"
dev="${RXE_DEV:-rxe0}" gid="${RXE_GID_INDEX:-1}" addr="${RXE_ADDR:-192.0.2.1}"
mkdir -p "$out"
{ echo "guest kernel: $(uname -r), $(nproc) vCPUs, $(awk '/MemTotal/{printf "%d MiB", $2/1024}' /proc/meminfo)"
  echo "rxe: $dev on ${RXE_NETDEV:-?} ($addr), GID index $gid"
  ibv_devinfo -d "$dev" | grep -E "active_mtu|max_mtu|link_layer|state"; } > "$out/vm.txt"

pair() {  # pair TOOL LOG ARGS...: server in the background, client here
  local tool="$1" log="$2"; shift 2
  "$tool" -d "$dev" -x "$gid" -F "$@" > "$log.server" 2>&1 &
  local server=$!
  sleep 1
  "$tool" -d "$dev" -x "$gid" -F "$@" "$addr" > "$log" 2>&1
  wait "$server"
}
for s in 65536 1048576 8388608; do
  it=$(( (256 << 20) / s )); [ "$it" -lt 20 ] && it=20
  pair ib_write_bw "$out/ib_write_bw-$s.txt" --report_gbits -t 64 -s "$s" -n "$it"
  pair ib_write_bw "$out/ib_write_bw-b-$s.txt" --report_gbits -t 64 -s "$s" -n "$it" -b
done
for s in 8 4096 65536; do pair ib_write_lat "$out/ib_write_lat-$s.txt" -s "$s" -n 1000; done
"$ccbench" p2p --transport verbs --test bw --sizes 64K,1M,8M --window 64 --json "$out/ccbench-bw.json" > "$out/ccbench-bw.txt" 2>&1
"$ccbench" p2p --transport verbs --test bidir --sizes 64K,1M,8M --window 64 --json "$out/ccbench-bidir.json" > "$out/ccbench-bidir.txt" 2>&1
"$ccbench" p2p --transport verbs --test lat --sizes 8,4K,64K -n 1000 --json "$out/ccbench-lat.json" > "$out/ccbench-lat.txt" 2>&1
# perftest busy-polls its completion queue; ccbench sleeps on the completion channel
# unless told to poll: both, so the difference is seen.
"$ccbench" p2p --transport verbs --ib-completion poll --test bw --sizes 64K,1M,8M --window 64 --json "$out/ccbench-bw-poll.json" > "$out/ccbench-bw-poll.txt" 2>&1
"$ccbench" p2p --transport verbs --ib-completion poll --test lat --sizes 8,4K,64K -n 1000 --json "$out/ccbench-lat-poll.json" > "$out/ccbench-lat-poll.txt" 2>&1
echo "guest done"
