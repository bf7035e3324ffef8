#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang, ASan and UBSan in build-fuzz/, and
# runs each for SECONDS (default 60) from the seeds in fuzz/seeds. A crash, leak or
# sanitizer report fails the run and leaves the input in build-fuzz/crash-*.
# Usage: tools/fuzz.sh [SECONDS]
set -euo pipefail
seconds=${1:-60}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$here/build-fuzz"
CC=clang CXX=clang++ cmake -S "$here" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCCB_FUZZ=ON \
  -DCCB_SANITIZE=address -DCCB_BUILD_TESTS=OFF -DCCB_BUILD_BENCH=OFF -DCCB_WITH_MPI=OFF >/dev/null
cmake --build "$out" -j "$(nproc)" --target fuzz_frame fuzz_text_inputs fuzz_tcp_stream
for target in fuzz_frame fuzz_text_inputs fuzz_tcp_stream; do
  corpus="$out/corpus/$target"
  mkdir -p "$corpus"
  echo "fuzz.sh: $target for ${seconds}s"
  (cd "$out" && "$out/fuzz/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$out/crash-$target-" "$corpus" "$here/fuzz/seeds/$target" 2>&1 | grep -E "^(Done|stat::number_of_executed_units|==|SUMMARY|INFO: seed)" || true)
  if ls "$out"/crash-"$target"-* >/dev/null 2>&1; then
    echo "fuzz.sh: $target found a failing input: $(ls "$out"/crash-"$target"-*)" >&2
    exit 1
  fi
done
echo "fuzz.sh: no crash"
