#!/usr/bin/env bash
# The man page, made from the help ccbench prints (help2man), so it never drifts from
# the binary: the top-level --help, then every subcommand's own --help as a section.
#   tools/man-page.sh CCBENCH OUT.1
set -euo pipefail
ccbench=$(readlink -f "$1") out=$2
extra=$(mktemp)
trap 'rm -f "$extra"' EXIT
{
  echo "[SUBCOMMANDS]"
  "$ccbench" --help | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}' | while read -r sub; do
    echo ".SS $sub"
    echo ".nf"
    "$ccbench" "$sub" --help | sed -e 's/\\/\\e/g' -e 's/^\./\\\&./'
    [[ $sub == model ]] && for m in fit project validate; do echo; "$ccbench" model "$m" --help | sed 's/\\/\\e/g'; done
    echo ".fi"
  done
  echo "[SEE ALSO]"
  echo "The README in /usr/share/doc/ccbench, and the specs in /usr/share/ccbench/specs."
} >"$extra"
help2man --no-info --section 1 --name "collective-communication benchmarks for LLM training networks" \
  --include "$extra" --output "$out" "$ccbench"
