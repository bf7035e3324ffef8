#!/usr/bin/env bash
# `ccbench study` over TCP and verbs in the soft-RoCE VM (tools/rxe-vm/rxe-run: qemu TCG,
# rdma_rxe on a dummy netdev), 2 ranks, three of seed 003's workloads: BERT-large data
# parallel, GPT-2 XL and T5-11B tensor parallel. Emulated: compare the transports with
# each other here, never with hardware.
#   results/run-study-vm.sh OUTDIR
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: $0 OUTDIR}"
ccbench="$here/build/tools/ccbench"
[ -x "$ccbench" ] || { echo "build ccbench first (tools/build.sh)" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
source "$here/results/machine_txt.sh"
machine_txt "$out" "command: results/run-study-vm.sh $*" "$("$ccbench" --version)" \
  "vm: tools/rxe-vm/rxe-run (qemu TCG, -smp 2, 3 GiB, Debian kernel $("$here/tools/rxe-vm/pick-kernel")); 2 ranks in the VM"
RXE_VM_OUT="$out" "$here/tools/rxe-vm/rxe-run" --timeout 2400 --mem 3G -- \
  "$ccbench" study --np 2 --transports tcp,verbs --profile bert-large:ddp,gpt2-xl:tp,t5-11b:tp -n 2 -w 1 \
  --gpu-tflops a100 --out "$out/study" 2>&1 | tee "$out/study.txt"
