#!/usr/bin/env bash
# Installs ccbench's build and test dependencies from Debian 12 packages, as root.
# Idempotent: packages already present are reported and left alone.
set -euo pipefail

PACKAGES=(
  cmake g++ make pkg-config
  libibverbs-dev librdmacm-dev rdma-core ibverbs-providers
  libopenmpi-dev openmpi-bin
  libbenchmark-dev libcli11-dev catch2 nlohmann-json3-dev
  # Rule files with thresholds (ccbench check, --rules).
  libyaml-cpp-dev
  iproute2 procps python3 nftables
  # The cluster's --delay without sch_netem (tools/netns/delay_queue.cc): NFQUEUE.
  iptables libnetfilter-queue-dev
  # The libFuzzer targets (tools/fuzz.sh): clang and its runtime libraries.
  clang libclang-rt-14-dev
  # Google Benchmark's compare.py (/usr/share/benchmark) and the SciPy it imports.
  libbenchmark-tools python3-scipy
  # Plots (ccbench report, --plot, results/): gnuplot without X; the reports are checked
  # in a real browser, headless Chromium, with a font for its text.
  gnuplot-nox chromium fonts-dejavu-core
  # Namespace tests that need their own mount namespace (unshare).
  util-linux
  # The soft-RoCE VM (tools/rxe-vm) in which the verbs tests run: an emulator, Debian's
  # kernel (it has rdma_rxe; this host's may not), a static busybox for the initramfs.
  qemu-system-x86 linux-image-amd64 busybox-static kmod cpio gzip
  ibverbs-utils perftest rdmacm-utils lcov
  # Slurm: libslurm's hostlist and node records for srun's defaults, and a real one-node
  # Slurm in the tests (tests/slurm_test.sh starts and stops its own daemons).
  slurmctld slurmd slurm-client libslurm-dev munge
  # The package: the man page from --help, the .deb's runtime dependencies.
  help2man dpkg-dev
  # tests/package_test.sh installs the .deb in a fresh Debian 12 chroot.
  debootstrap
)

if [ "$(id -u)" != 0 ]; then
  echo "install-deps.sh: run as root (apt-get needs it), e.g. sudo $0" >&2
  exit 2
fi
if ! command -v apt-get >/dev/null; then
  echo "install-deps.sh: apt-get not found: ccbench's set-up expects Debian 12" >&2
  exit 2
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    echo "install-deps.sh: $p already installed"
  else
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps.sh: nothing to install"
  exit 0
fi
echo "install-deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps.sh: done"
