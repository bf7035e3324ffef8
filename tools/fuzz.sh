#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang, ASan and UBSan in build-asan/ (the
# folder tools/sanitize.sh address tests in), and runs each for SECONDS (default 60)
# from the seeds in fuzz/seeds. A crash, leak or sanitizer report fails the run and
# leaves the input in build-asan/crash-*.
# Usage: tools/fuzz.sh [SECONDS]
set -euo pipefail
seconds=${1:-60}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
targets=(fuzz_frame fuzz_store fuzz_text_inputs fuzz_judge_inputs fuzz_tcp_stream fuzz_verbs_handshake fuzz_shm_ring)
out="$("$here/tools/sanitize.sh" --configure address)"
cmake --build "$out" -j "$(nproc)" --target "${targets[@]}"
# One fuzzer a core at a time: each still gets SECONDS of its own.
fuzz_one() {
  local target=$1 corpus="$out/corpus/$1"
  mkdir -p "$corpus"
  (cd "$out" && "$out/fuzz/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$out/crash-$target-" "$corpus" "$here/fuzz/seeds/$target" >"$out/fuzz-$target.log" 2>&1 || true)
}
rm -f "$out"/crash-*
running=0
for target in "${targets[@]}"; do
  echo "fuzz.sh: $target for ${seconds}s"
  fuzz_one "$target" &
  running=$((running + 1))
  if [[ $running -ge $(nproc) ]]; then wait -n; running=$((running - 1)); fi
done
wait
status=0
for target in "${targets[@]}"; do
  echo "fuzz.sh: $target:"
  grep -E "^(Done|stat::number_of_executed_units|==|SUMMARY|INFO: seed)" "$out/fuzz-$target.log" | sed 's/^/  /' || true
  if ls "$out"/crash-"$target"-* >/dev/null 2>&1; then
    echo "fuzz.sh: $target found a failing input: $(ls "$out"/crash-"$target"-*)" >&2
    status=1
  fi
done
[[ $status == 0 ]] && echo "fuzz.sh: no crash"
exit $status
