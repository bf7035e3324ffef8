#!/usr/bin/env bash
# Line coverage of lib/transport/verbs under the verbs tests, which run in the soft-RoCE
# VM: builds with --coverage into build-coverage/, runs build-coverage/tests/verbs_tests
# in the VM with the .gcda files redirected (GCOV_PREFIX) to a folder the VM shares
# read-write, copies them back, and prints lcov's summary. HTML: build-coverage/verbs-html.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$here/build-coverage"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCCB_COVERAGE=ON -DCCB_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target verbs_tests collective_worker ccbench
find "$build" -name '*.gcda' -delete
gcda="$(mktemp -d /var/tmp/ccbench-gcda.XXXXXX)"
trap 'rm -rf "$gcda"' EXIT
export GCOV_PREFIX="$gcda" GCOV_PREFIX_STRIP=0
RXE_VM_OUT="$gcda" RXE_VM_ENV="GCOV_PREFIX GCOV_PREFIX_STRIP" \
  "$here/tools/rxe-vm/rxe-run" --timeout 2400 --mem 3G -- "$build/tests/verbs_tests" "$@"
unset GCOV_PREFIX GCOV_PREFIX_STRIP
cp -r "$gcda$build/." "$build/"
lcov --quiet --capture --directory "$build/lib" --output-file "$build/verbs.info" \
  --include "$here/lib/transport/verbs/*" 2>/dev/null
lcov --list "$build/verbs.info"
lcov --summary "$build/verbs.info"
genhtml --quiet "$build/verbs.info" --output-directory "$build/verbs-html"
