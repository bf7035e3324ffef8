# A real Slurm over the emulated hosts, sourced by tools/netns/cluster:
#   cluster slurm up | down          slurmctld on host 0, a slurmd on every host
#   cluster srun -- SRUN-ARGS...     srun from host 0
# Debian's slurmctld, slurmd and munge. Each daemon runs in its host's network namespace
# and its own UTS namespace named after the host (slurmctld checks its host name;
# tasks see their node's), each slurmd with its own spool, PID and log files (%n in
# slurm.conf). One munged with a key made here serves them all through its socket (a
# path, so every namespace reaches it). Every PID is kept in the cluster's state folder,
# and `cluster slurm down` (or `cluster down`) stops exactly those processes.

slurm_dir() { echo "$(state_dir)/slurm"; }
slurm_conf() { echo "$(slurm_dir)/slurm.conf"; }

slurm_write_conf() {
  local d=$1 n=$2 i
  {
    echo "ClusterName=ccbcluster"
    echo "SlurmctldHost=$(host_ns 0)(10.$net.0.1)"
    echo "SlurmctldPort=6817"
    echo "SlurmdPort=6818"
    echo "AuthType=auth/munge"
    echo "AuthInfo=socket=$d/munge.sock"
    echo "CredType=cred/munge"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "StateSaveLocation=$d/ctld"
    echo "SlurmdSpoolDir=$d/spool-%n"
    echo "SlurmctldPidFile=$d/slurmctld.pid.slurm"
    echo "SlurmdPidFile=$d/slurmd-%n.pid.slurm"
    echo "SlurmctldLogFile=$d/slurmctld.log"
    echo "SlurmdLogFile=$d/slurmd-%n.log"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_CPU"
    echo "MpiDefault=none"
    echo "ReturnToService=2"
    echo "SlurmdParameters=config_overrides"
    for ((i = 0; i < n; i++)); do
      echo "NodeName=$(host_ns $i) NodeAddr=10.$net.0.$((i + 1)) CPUs=4 State=UNKNOWN"
    done
    echo "PartitionName=emulated Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4"
  } >"$d/slurm.conf"
}

# Starts "$@" in host $1's network namespace under host name $1, PID to $2.
slurm_daemon() {
  local ns=$1 pidfile=$2
  shift 2
  # nsenter, not ip netns exec: that remounts /sys for the namespace, without the cgroup
  # file systems slurmd 22.05 reads even with proctrack/linuxproc.
  nsenter --net="/run/netns/$ns" unshare --uts sh -c 'hostname "$1"; shift; exec "$@"' sh "$ns" "$@" \
    >"$(slurm_dir)/$(basename "$pidfile" .pid).out" 2>&1 &
  echo $! >"$pidfile"
}

slurm_up() {
  local n d i tool
  n=$(host_count)
  [[ $n -ge 1 ]] || die "no cluster with prefix $prefix: run 'cluster up --hosts N' first"
  for tool in munged mungekey slurmctld slurmd srun sinfo unshare nsenter; do
    command -v "$tool" >/dev/null || die "$tool is missing: tools/install-deps.sh installs slurmctld slurmd slurm-client munge"
  done
  slurm_down
  d=$(slurm_dir)
  mkdir -p "$d/ctld"
  chmod 755 "$d"
  mungekey -c -k "$d/munge.key"
  munged -F --force --key-file="$d/munge.key" --socket="$d/munge.sock" --pid-file="$d/munged.pid.munge" \
    --log-file="$d/munged.log" --seed-file="$d/munge.seed" >"$d/munged.out" 2>&1 &
  echo $! >"$(state_dir)/slurm-munged.pid"
  for _ in $(seq 50); do [[ -S $d/munge.sock ]] && break; sleep 0.1; done
  [[ -S $d/munge.sock ]] || die "munged did not start: $(tail -n 1 "$d/munged.log")"
  slurm_write_conf "$d" "$n"
  slurm_daemon "$(host_ns 0)" "$(state_dir)/slurm-ctld.pid" slurmctld -D -f "$d/slurm.conf"
  for ((i = 0; i < n; i++)); do
    mkdir -p "$d/spool-$(host_ns $i)"
    slurm_daemon "$(host_ns $i)" "$(state_dir)/slurm-d$i.pid" slurmd -D -N "$(host_ns $i)" -f "$d/slurm.conf"
  done
  local idle=0
  for _ in $(seq 100); do
    idle=$(ip netns exec "$(host_ns 0)" env SLURM_CONF="$d/slurm.conf" sinfo -h -N -t idle -o %N 2>/dev/null | wc -l)
    [[ $idle == "$n" ]] && break
    sleep 0.2
  done
  [[ $idle == "$n" ]] || die "Slurm: $idle of $n nodes came up idle: see $d/*.log"
  echo "cluster: Slurm up: slurmctld on $(host_ns 0), a slurmd on each of $n hosts (SLURM_CONF=$d/slurm.conf)"
}

# Stops the daemons by the PIDs slurm_up kept (TERM, then KILL after 2 s) and removes
# their folder.
slurm_down() {
  local f pids=()
  for f in "$(state_dir)"/slurm-*.pid; do
    [[ -f $f ]] || continue
    pids+=("$(cat "$f")")
    rm -f "$f"
  done
  if [[ ${#pids[@]} -eq 0 ]]; then
    rm -rf --one-file-system "$(slurm_dir)"
    return 0
  fi
  kill "${pids[@]}" 2>/dev/null || true
  local alive p
  for _ in $(seq 20); do
    alive=0
    for p in "${pids[@]}"; do running "$p" && alive=1; done
    [[ $alive == 0 ]] && break
    sleep 0.1
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
  # Steps still running outlive slurmd: their slurmstepd carries this SLURM_CONF.
  for p in $(pgrep -f '^slurmstepd'); do
    grep -qzx "SLURM_CONF=$(slurm_conf)" "/proc/$p/environ" 2>/dev/null && kill -9 "$p" 2>/dev/null
  done
  rm -rf --one-file-system "$(slurm_dir)"
}

slurm_srun() {
  [[ -f $(slurm_conf) ]] || die "no Slurm on cluster $prefix: run 'cluster slurm up' first"
  ip netns exec "$(host_ns 0)" env SLURM_CONF="$(slurm_conf)" srun "${args[@]}"
}
