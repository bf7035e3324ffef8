// Who am I in the job? Read from the environment that a launcher left: ours (CCB_*),
// torchrun's, Open MPI's, PMI's or Slurm's.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace ccb {

struct LaunchInfo {
  int rank = 0;
  int world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  uint64_t token = 0;
  std::string source;   // "ccbench", "torchrun", "openmpi", "pmi", "slurm", "single"
  bool use_mpi = false; // started by mpirun: bootstrap over MPI
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_env();

// Throws kInvalidArgument naming the variable and the fix.
LaunchInfo detect_launch(const EnvLookup& env);
uint64_t token_from_string(const std::string& s);
// True when some launcher (ours, torchrun, mpirun, PMI, Slurm) started this process as
// a rank, so it must not start ranks of its own.
bool started_by_launcher(const EnvLookup& env);  // FNV-1a of CCB_TOKEN

}  // namespace ccb
