# Sourced by the namespace tests: exits 77 (ctest's skip) with the reason unless this
# process may create network namespaces.
if [[ $(id -u) != 0 ]] || ! ip netns add ccbprobe$$ 2>/dev/null; then
  echo "skipped: needs root and network namespaces (ip netns)"
  exit 77
fi
ip netns del ccbprobe$$
