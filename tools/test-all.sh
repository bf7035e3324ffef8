#!/usr/bin/env bash
# README command 2: install, build, and run every test (ctest). .ci/run calls this.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/tools/install-deps.sh"
"$here/tools/build.sh"
cd "$here/build"
ctest --output-on-failure --timeout 900 -j 1
