#!/usr/bin/env bash
# Runs inside the soft-RoCE VM, started by results/run-verbs-vs-peers.sh:
#   verbs_guest.sh OUTDIR CCBENCH GLOO_BINARY GLOO_LAUNCH ROUND
# One round: ib_write_bw one-way and bidirectional (64 KiB..8 MiB), Gloo's ibverbs
# AllReduce, ccbench over verbs and over TCP, 2 ranks, float32 sum in place.
set -uo pipefail
out="$1" ccbench="$2" gloo="$3" gloo_launch="$4" round="$5"
dev="${RXE_DEV:-rxe0}" gid="${RXE_GID_INDEX:-1}" addr="${RXE_ADDR:-192.0.2.1}"
sizes="1M,8M,64M"
mkdir -p "$out"
if [ "$round" = 1 ]; then
  { echo "guest kernel: $(uname -r), $(nproc) vCPUs, $(awk '/MemTotal/{printf "%d MiB", $2/1024}' /proc/meminfo)"
    echo "rxe: $dev on ${RXE_NETDEV:-?} ($addr), GID index $gid"
    ibv_devinfo -d "$dev" | grep -E "active_mtu|max_mtu|link_layer|state"; } > "$out/vm.txt"
fi

perftest_pair() {  # perftest_pair LOG ARGS...: server in the background, client here
  local log="$1"; shift
  ib_write_bw -d "$dev" -x "$gid" -F --report_gbits "$@" > "$log.server" 2>&1 &
  local server=$!
  sleep 1
  ib_write_bw -d "$dev" -x "$gid" -F --report_gbits "$@" "$addr" > "$log" 2>&1
  wait "$server"
}
for s in 65536 262144 1048576 4194304 8388608; do
  it=$(( (96 << 20) / s )); [ "$it" -lt 12 ] && it=12
  perftest_pair "$out/ib_write_bw-$s-r$round.txt" -s "$s" -n "$it"
  perftest_pair "$out/ib_write_bw-b-$s-r$round.txt" -s "$s" -n "$it" -b
done

"$gloo_launch" -n 2 --timeout 900 "$gloo" --transport ibverbs --ib-dev "$dev" --ib-port 1 --ib-gid-index "$gid" \
  --algos ring_chunked,halving_doubling --sizes "$sizes" --iter-bytes 64M --min-iters 3 --max-iters 50 \
  > "$out/gloo-ibverbs-r$round.csv" 2> "$out/gloo-ibverbs-r$round.err"

"$ccbench" run --np 2 --transport verbs --sizes "$sizes" --algo ring,tree --in-place -n 5 -w 1 \
  > "$out/ccbench-verbs-r$round.txt" 2>&1
"$ccbench" run --np 2 --transport verbs --qps 2 --sizes "$sizes" --algo ring --in-place -n 5 -w 1 \
  > "$out/ccbench-verbs-qps2-r$round.txt" 2>&1
"$ccbench" run --np 2 --transport tcp --sizes "$sizes" --algo ring,tree --in-place -n 5 -w 1 \
  > "$out/ccbench-tcp-r$round.txt" 2>&1
echo "round $round done"
