# Sourced by the run-judging-*.sh scripts (root). Needs $pair (tools/netns/shaped-pair)
# and $ccbench set. shaped_pair_run OUTDIR NAME ARGS...: ccbench ARGS with one rank in
# each host of the pair (env launch); rank 0 writes OUTDIR/NAME.json and its output to
# OUTDIR/NAME.txt, with any more flags of its own from the array RANK0_EXTRA. Returns
# rank 0's exit status.
shaped_pair_run() {
  local out=$1 name=$2 port=$((29700 + RANDOM % 200)) status=0
  shift 2
  local env=(env CCB_WORLD_SIZE=2 CCB_MASTER_ADDR=10.77.0.1 CCB_MASTER_PORT=$port CCB_TOKEN="$name")
  "$pair" exec b -- "${env[@]}" CCB_RANK=1 "$ccbench" "$@" --iface ccbb0 >/dev/null 2>&1 &
  local peer=$!
  "$pair" exec a -- "${env[@]}" CCB_RANK=0 "$ccbench" "$@" --iface ccba0 --json "$out/$name.json" \
    "${RANK0_EXTRA[@]}" >"$out/$name.txt" 2>&1 || status=$?
  wait "$peer" || true
  return $status
}
