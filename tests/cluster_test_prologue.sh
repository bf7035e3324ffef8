# Sourced by the emulated-cluster tests once $cluster is set:
#   source cluster_test_prologue.sh PREFIX NET
# Skips (77) unless namespaces can be made, then gives the test $prefix (PREFIX and its
# pid), $work (a fresh folder), c() (the cluster tool on the test's own prefix and
# 10.NET.0.0/16), fail(), and a trap that takes its cluster down and removes $work.
source "$(dirname "${BASH_SOURCE[0]}")/require_netns.sh"
prefix=$1$$ net=$2 work=$(mktemp -d)
c() { local sub=$1; shift; "$cluster" "$sub" --prefix "$prefix" --net "$net" "$@"; }
trap 'c down; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
