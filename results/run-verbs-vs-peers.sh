#!/usr/bin/env bash
# Measures ccbench's verbs AllReduce inside the soft-RoCE VM (tools/rxe-vm/rxe-run),
# beside ib_write_bw on the same rxe0 and MTU, Gloo's ibverbs AllReduce, and ccbench
# over TCP in the same VM, in one VM run.
#
#   results/run-verbs-vs-peers.sh OUTDIR [ROUNDS]      (default 2 rounds)
#   NETDEV_MTU=9000 results/run-verbs-vs-peers.sh ...  (jumbo frames: rxe active_mtu 4096;
#                                                        default 1500: active_mtu 1024)
#
# Gloo comes from the peer harness in the project's workspace (PEERS_DIR, default
# ../shared/peers beside the checkout; libgloo-dev). Writes the raw outputs and
# OUTDIR/summary.txt. The VM is emulated (qemu TCG): compare figures with each other,
# never with hardware.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR [ROUNDS]}"
rounds="${2:-2}"
peers="${PEERS_DIR:-$here/../shared/peers}"
ccbench="$here/build/tools/ccbench"
[ -r "$peers/gloo_allreduce.cc" ] || { echo "no peer harness at $peers (set PEERS_DIR)" >&2; exit 2; }
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out/raw"
out="$(cd "$out" && pwd)"
gloo="$out/work/gloo_allreduce"
mkdir -p "$out/work"
g++ -O2 -o "$gloo" "$peers/gloo_allreduce.cc" -lgloo -libverbs -pthread
{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -n) kernel $(uname -r); $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "ccbench: $(git -C "$here" rev-parse --short HEAD) $("$ccbench" --version)"
  echo "command: NETDEV_MTU=${NETDEV_MTU:-1500} results/run-verbs-vs-peers.sh $*"
  echo "vm: tools/rxe-vm/rxe-run (qemu TCG, -smp 2, 3 GiB, Debian kernel $("$here/tools/rxe-vm/pick-kernel"))"
} > "$out/machine.txt"
for r in $(seq 1 "$rounds"); do
  echo "== round $r" >&2
  RXE_VM_OUT="$out/raw" "$here/tools/rxe-vm/rxe-run" --timeout 1800 --mem 3G --mtu "${NETDEV_MTU:-1500}" -- \
    "$here/results/verbs_guest.sh" "$out/raw" "$ccbench" "$gloo" "$peers/gloo_launch.sh" "$r"
done
cat "$out/raw/vm.txt" >> "$out/machine.txt"
rm -rf "$out/work"
python3 "$here/results/summarize_verbs.py" "$out" | tee "$out/summary.txt"
