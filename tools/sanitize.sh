#!/usr/bin/env bash
# The test suite under sanitizers, built with clang (faster to build than GCC here, and
# its runtimes come from libclang-rt-14-dev):
#   address  build-asan/: ASan + UBSan (-fno-sanitize-recover). The host tests (ctest
#            -LE "verbs|netns"); every ccbench and worker process they start is
#            instrumented too. To fit CI's time, the collective matrix runs only with
#            tiny chunks at 3 ranks (its deepest pipelines), and the 83 s default run
#            is left to the Release suite; --full runs every case (15 min here).
#            tools/fuzz.sh builds its targets in the same folder.
#   thread   build-tsan/: TSan, for the code that runs threads: unit_tests (the store
#            server, ranks as threads) and transport_tests (the progress engine driven
#            from several threads, abort from another thread).
# Usage: tools/sanitize.sh address [--full]|thread|all       run
#        tools/sanitize.sh --configure address       only configure build-asan (fuzz.sh)
# Prints the folder's name on --configure. A sanitizer report fails the test that made it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

configure() {
  local kind=$1 dir=$2 fuzz=OFF
  [[ $kind == address ]] && fuzz=ON   # the fuzzers share this build: -fsanitize=fuzzer-no-link
  # -O1 and line tables only: a third faster to build than RelWithDebInfo, and reports
  # still name file and line.
  CC=clang CXX=clang++ cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=Sanitize \
    -DCMAKE_C_FLAGS_SANITIZE="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -gline-tables-only" \
    -DCCB_SANITIZE="$kind" -DCCB_FUZZ=$fuzz -DCCB_BUILD_BENCH=OFF >/dev/null
}

run_address() {
  local dir="$here/build-asan"
  configure address "$dir"
  cmake --build "$dir" -j "$(nproc)" --target unit_tests transport_tests collective_tests cli_tests
  local skip="collectives (match the serial reference|at scale|with one slot)|the default run"
  [[ ${1:-} == --full ]] && skip="^$"
  echo "sanitize.sh: ASan+UBSan, the host tests (skipped: ${skip})"
  # The real Slurm and the package's chroot run the Release build only (their daemons
  # and apt are not what is under test here).
  (cd "$dir" && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$here/tools/lsan.supp" \
    UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure --timeout 900 -j 1 -LE "verbs|netns|slurm|package" -E "$skip")
}

run_thread() {
  local dir="$here/build-tsan"
  configure thread "$dir"
  cmake --build "$dir" -j "$(nproc)" --target unit_tests transport_tests
  echo "sanitize.sh: TSan, unit_tests and transport_tests"
  # clang 14's TSan cannot map its shadow when ASLR uses more bits (vm.mmap_rnd_bits 32,
  # as newer kernels set): run without ASLR.
  (cd "$dir" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    setarch "$(uname -m)" -R ctest --output-on-failure --timeout 900 -j 1 -L "^(unit|transport)$")
}

case ${1:-} in
  --configure)
    [[ ${2:-} == address ]] || { echo "sanitize.sh: --configure address" >&2; exit 2; }
    configure address "$here/build-asan" && echo "$here/build-asan" ;;
  address) run_address "${2:-}" ;;
  thread) run_thread ;;
  all) run_address; run_thread ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
