// Who am I in the job? Read from the environment that a launcher left: ours (CCB_*),
// torchrun's, Open MPI's, PMI's or Slurm's.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "bootstrap/slurm_nodes.h"

namespace ccb {

struct LaunchInfo {
  int rank = 0;
  int world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  uint64_t token = 0;    // the job's identity (job_identity below); 0: none
  std::string job_label; // that identity as people read it: "Slurm job 42.0"; "" for none
  std::string source;   // "ccbench", "torchrun", "openmpi", "pmi", "slurm", "single"
  bool use_mpi = false; // started by mpirun: bootstrap over MPI
  // The launcher's local rank (LOCAL_RANK, SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK),
  // checked against the host layout the ranks find (host_layout.h); -1 when none says.
  int launcher_local_rank = -1;
  std::string local_rank_var;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_env();

// Throws kInvalidArgument naming the variable and the fix. Under srun, rank 0's store is
// placed from what `slurm` says (slurm_nodes.h).
LaunchInfo detect_launch(const EnvLookup& env, const slurm::Directory& slurm = {});
uint64_t token_from_string(const std::string& s);  // FNV-1a

// Which job this process belongs to, so that no other job's process can join it: the
// token and label from CCB_TOKEN, else the launcher's job id (Slurm's job and step,
// torchrun's run id, Open MPI's job id); token 0 and no label when there is none.
struct JobIdentity {
  uint64_t token = 0;
  std::string label;  // "CCB_TOKEN", "Slurm job 42.0", "torchrun run 7f3a", "Open MPI job 308281345"
};
JobIdentity job_identity(const EnvLookup& env);
// True when some launcher (ours, torchrun, mpirun, PMI, Slurm) started this process as
// a rank, so it must not start ranks of its own.
bool started_by_launcher(const EnvLookup& env);

}  // namespace ccb
