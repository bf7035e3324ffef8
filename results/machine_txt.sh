# Sourced by the run-*.sh scripts: machine_txt OUTDIR [NOTE...] writes OUTDIR/machine.txt
# (kernel, CPU, cores, the commit measured, then each NOTE on a line).
machine_txt() {
  local out=$1 root
  shift
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  {
    uname -a
    grep -m1 'model name' /proc/cpuinfo
    nproc
    git -C "$root" rev-parse HEAD
    local note
    for note in "$@"; do echo "$note"; done
  } >"$out/machine.txt"
}
