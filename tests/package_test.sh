#!/usr/bin/env bash
# The .deb as a new host gets it: cpack makes it from BUILD, debootstrap makes a fresh
# Debian 12 (minbase) chroot, and `apt-get install ./ccbench_*.deb` alone (without the
# recommended gnuplot and verbs providers, to show the dependencies suffice) must give a
# ccbench that runs `ccbench run --np 2`, with its specs and a man page that `man`
# shows. Needs root and a Debian mirror (CCB_DEBIAN_MIRROR, default deb.debian.org);
# without the mirror it is skipped (77), saying so.
# Usage: package_test.sh BUILD_DIR
set -euo pipefail
build=$(readlink -f "$1")
mirror=${CCB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null || { echo "package_test: debootstrap is missing: tools/install-deps.sh installs it" >&2; exit 1; }
root=$(mktemp -d /tmp/ccb-deb-XXXXXX)
cleanup() {
  umount "$root/proc" 2>/dev/null || true
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
(cd "$build" && cpack -G DEB >"$root.cpack.log" 2>&1) || { cat "$root.cpack.log" >&2; rm -f "$root.cpack.log"; exit 1; }
rm -f "$root.cpack.log"
deb=$(ls "$build"/ccbench_*.deb)
if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1; then
  echo "package_test: skipped: debootstrap could not make a Debian 12 chroot from $mirror: $(tail -n 1 "$root.log")"
  rm -f "$root.log"
  exit 77
fi
rm -f "$root.log"
cp "$deb" "$root/root/"
mount -t proc proc "$root/proc"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive bash -c "$1"; }
in_root "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends ./root/$(basename "$deb") >/root/install.log 2>&1" ||
  { tail -n 20 "$root/root/install.log" >&2; echo "package_test: FAIL: apt-get install ./$(basename "$deb") failed" >&2; exit 1; }
echo "package_test: installed $(basename "$deb") in a fresh Debian 12 chroot"
in_root "cd /root && ccbench run --np 2 --sizes 64K,1M -n 3 -w 1 --json /root/r.json" | tail -n 3
in_root "grep -q '\"complete\": true' /root/r.json" || { echo "package_test: FAIL: ccbench run --np 2 did not complete" >&2; exit 1; }
in_root "test -f /usr/share/ccbench/specs/roce-100g.yaml && test -x /usr/libexec/ccbench/bench_collectives" ||
  { echo "package_test: FAIL: the specs or the drivers are not installed" >&2; exit 1; }
in_root "apt-get install -y -q man-db >/dev/null 2>&1; MANPAGER=cat man ccbench 2>/dev/null | grep -q 'ccbench - collective-communication'" ||
  { echo "package_test: FAIL: man ccbench does not show the page" >&2; exit 1; }
echo "package_test: ccbench run --np 2, the specs, the drivers and man ccbench: ok"
