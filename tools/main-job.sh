#!/usr/bin/env bash
# README command 1: install, build, and run the main job: 4 ranks on this host over
# loopback TCP, ring and tree AllReduce, over LLM message sizes (8 B .. 64 MiB,
# including PyTorch DDP's 25 MiB bucket). Extra arguments go to `ccbench run`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/tools/install-deps.sh"
"$here/tools/build.sh" "$here/build" --target ccbench
exec "$here/build/tools/ccbench" run --np 4 --transport tcp --algo ring,tree "$@"
