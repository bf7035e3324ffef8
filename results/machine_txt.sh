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

# For the emulated-cluster benchmarks: cluster_bench_begin OUTDIR NOTE... makes OUTDIR
# absolute (as $out), sets $build (BUILD, else build/) and $cluster (tools/netns/cluster),
# writes machine.txt with the NOTEs, starts $out/commands.txt empty, and takes the
# cluster down when the script exits.
cluster_bench_begin() {
  local dir=$1 root
  shift
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  build=${BUILD:-$root/build}
  cluster="$root/tools/netns/cluster"
  mkdir -p "$dir"
  out=$(cd "$dir" && pwd)
  machine_txt "$out" "$@"
  : >"$out/commands.txt"
  trap '"$cluster" down' EXIT
}

# cluster_bench_on_rails RAILS OUTPUT CCBENCH_ARGS...: after cluster_bench_begin, brings up
# 2 emulated hosts with RAILS cables each at 2 Gbit/s (its report in cluster-RAILS.txt),
# logs the commands to commands.txt, and runs ccbench with 2 ranks a host into OUTPUT.
cluster_bench_on_rails() {
  local rails=$1 output=$2
  shift 2
  "$cluster" up --hosts 2 --rails "$rails" --rate 2gbit >"$out/cluster-$rails.txt"
  echo "$cluster up --hosts 2 --rails $rails --rate 2gbit; $cluster run --ranks-per-host 2 -- $build/tools/ccbench $*" \
    >>"$out/commands.txt"
  "$cluster" run --ranks-per-host 2 -- "$build/tools/ccbench" "$@" >"$output" 2>&1
}
