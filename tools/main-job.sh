#!/usr/bin/env bash
# README command 1: install, build, and run the main job: 4 ranks on this host over
# loopback TCP, ring and tree AllReduce, over the gradient buckets of one Llama-2 7B
# training step under PyTorch DDP, with the step's communication time and a JSON record
# in build/main-job.json. Extra arguments go to `ccbench run`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/tools/install-deps.sh"
"$here/tools/build.sh" "$here/build" --target ccbench
exec "$here/build/tools/ccbench" run --np 4 --transport tcp --algo ring,tree --profile llama2-7b:ddp \
  --json "$here/build/main-job.json" "$@"
