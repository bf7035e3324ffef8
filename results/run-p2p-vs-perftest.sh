#!/usr/bin/env bash
# ccbench p2p beside the anchor tools, in one run each:
#  - over verbs in the soft-RoCE VM (tools/rxe-vm/rxe-run): ib_write_bw, ib_write_bw -b
#    and ib_write_lat at the same sizes and depth (results/p2p_guest.sh);
#  - over TCP on this host's loopback: iperf3 (one stream, 10 s) beside ccbench p2p
#    --test bw at 1M and 8M.
#   results/run-p2p-vs-perftest.sh OUTDIR
# Writes the raw outputs and OUTDIR/summary.txt. The VM is emulated (qemu TCG): compare
# its figures with each other, never with hardware.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR}"
ccbench="$here/build/tools/ccbench"
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out/raw"
out="$(cd "$out" && pwd)"
source "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-p2p-vs-perftest.sh $*" "$("$ccbench" --version)" \
  "vm: tools/rxe-vm/rxe-run (qemu TCG, -smp 2, 3 GiB, Debian kernel $("$here/tools/rxe-vm/pick-kernel"))"
RXE_VM_OUT="$out/raw" "$here/tools/rxe-vm/rxe-run" --timeout 1500 --mem 3G -- "$here/results/p2p_guest.sh" "$out/raw" "$ccbench"
cat "$out/raw/vm.txt" >> "$out/machine.txt"
iperf3 -s -1 -p 5299 > "$out/raw/iperf3-server.txt" 2>&1 &
sleep 0.5
iperf3 -c 127.0.0.1 -p 5299 -t 10 -J > "$out/raw/iperf3.json"
wait
"$ccbench" p2p --test bw --sizes 1M,8M --window 16 -n 200 --json "$out/raw/ccbench-tcp-bw.json" > "$out/raw/ccbench-tcp-bw.txt" 2>&1
python3 "$here/results/summarize_p2p.py" "$out" | tee "$out/summary.txt"
