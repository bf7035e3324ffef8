#!/usr/bin/env bash
# README command 2: install, build, and run every test (ctest). .ci/run calls this.
# The namespace tests (shaped link, cluster faults with their times to detection) and
# the verbs tests (inside the soft-RoCE VM, tools/rxe-vm) run next, reported in full;
# then the sanitizer builds and the fuzzers.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/tools/install-deps.sh"
"$here/tools/build.sh"
cd "$here/build"
ctest --output-on-failure --timeout 900 -j 1 -LE "verbs|netns"
ctest --output-on-failure --verbose -L netns
# Shown in full: why verbs are skipped on this host, and the report from inside the VM.
ctest --output-on-failure --verbose -L verbs
# The suite under ASan+UBSan (clang, build-asan/), whose build the fuzzers then share.
"$here/tools/sanitize.sh" address
# The parser fuzzers (libFuzzer, ASan+UBSan), a bounded time each.
"$here/tools/fuzz.sh" "${CCB_FUZZ_SECONDS:-35}"
# The threaded tests under TSan (clang, build-tsan/).
"$here/tools/sanitize.sh" thread
