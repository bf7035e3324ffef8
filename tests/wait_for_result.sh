# Sourced by the fault tests: wait_for_result JSON [TENTHS] returns once a ccbench --json
# record holds a finished size (polls every 0.1 s, up to TENTHS times; default 600), so a
# fault is injected mid-run with something already measured to keep.
wait_for_result() {
  local json=$1 tries=${2:-600}
  for _ in $(seq "$tries"); do
    python3 -c "import json,sys; sys.exit(0 if json.load(open('$json'))['results'] else 1)" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
