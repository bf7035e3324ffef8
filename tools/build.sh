#!/usr/bin/env bash
# Configures (Release) and builds ccbench into ./build, or the folder given; further
# arguments go to `cmake --build` (for example --target ccbench).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$here/build}"
shift || true
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" "$@"
