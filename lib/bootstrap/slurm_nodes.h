// Where rank 0's store is under srun, from what Slurm itself knows, so that
// `srun -n 4 ccbench run` needs nothing of the user:
//  - the host: the first node of the step's nodelist (SLURM_STEP_NODELIST, else
//    SLURM_JOB_NODELIST), expanded by libslurm's hostlist API ("node[01-04,07]"), or by
//    `scontrol show hostnames` where ccbench was built without libslurm; never parsed
//    here;
//  - its address: the NodeAddr Slurm keeps for the node (a node's name need not resolve
//    in DNS), from slurmctld's node records (libslurm, or `scontrol show node`);
//  - the port: kSlurmFirstPort + (job id mod 1000) x 10 + (step id mod 10), in
//    10000..19999 (below Linux's ephemeral ports), so two jobs or steps sharing a node
//    take different ports unless their ids are 1,000 jobs or 10 steps apart; then the
//    store's handshake names the other Slurm job.
// CCB_MASTER_ADDR and CCB_MASTER_PORT override both.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace ccb::slurm {

inline constexpr int kSlurmFirstPort = 10000;

// Throws kInvalidArgument naming the list when Slurm cannot expand it.
std::vector<std::string> expand_nodelist(const std::string& list);
// Throws kInvalidArgument naming the node when Slurm does not know it.
std::string node_address(const std::string& node);
// Job and step ids as Slurm writes them ("42", "0"; a batch step's "4294967294").
// Throws kInvalidArgument naming SLURM_JOB_ID when it is not a number.
int store_port(const std::string& job_id, const std::string& step_id);

// What detect_launch asks Slurm; tests pass their own.
struct Directory {
  std::function<std::vector<std::string>(const std::string&)> expand = expand_nodelist;
  std::function<std::string(const std::string&)> address = node_address;
};

}  // namespace ccb::slurm
