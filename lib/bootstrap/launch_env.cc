#include "bootstrap/launch_env.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "core/error.h"

namespace ccb {
namespace {

int parse_int(const EnvLookup& env, const std::string& var, int lo, int hi) {
  std::string v = *env(var);
  int out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size() || out < lo || out > hi)
    throw_invalid(var + "='" + v + "' is not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return out;
}

struct Scheme {
  const char* source;
  const char* rank_var;
  const char* size_var;
  const char* local_rank_var;  // the launcher's own count within a host; null: it has none
};

constexpr Scheme kSchemes[] = {
    {"ccbench", "CCB_RANK", "CCB_WORLD_SIZE", nullptr},
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"pmi", "PMI_RANK", "PMI_SIZE", nullptr},
    {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

std::optional<std::string> first_of(const EnvLookup& env, std::initializer_list<const char*> vars) {
  for (const char* v : vars)
    if (auto s = env(v); s && !s->empty()) return s;
  return std::nullopt;
}

// Under srun: rank 0's host and port from Slurm (slurm_nodes.h), or the user's
// CCB_MASTER_ADDR checked against the job's nodes.
void place_slurm_store(const EnvLookup& env, const slurm::Directory& slurm, bool addr_given, bool port_given,
                       LaunchInfo& info) {
  const auto list = first_of(env, {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST"});
  if (!list && !addr_given)
    throw_invalid("started by srun without SLURM_STEP_NODELIST or SLURM_JOB_NODELIST: set CCB_MASTER_ADDR to rank 0's host");
  if (list) {
    const std::vector<std::string> nodes = slurm.expand(*list);
    if (!addr_given) {
      info.master_addr = slurm.address(nodes.front());
    } else if (std::find(nodes.begin(), nodes.end(), info.master_addr) == nodes.end() &&
               std::none_of(nodes.begin(), nodes.end(), [&](const std::string& n) { return slurm.address(n) == info.master_addr; })) {
      throw_invalid("CCB_MASTER_ADDR=" + info.master_addr + " is not a node of this Slurm job (" + *list +
                    "): name one of its nodes, or unset it (rank 0's node is the default)");
    }
  }
  if (auto job = first_of(env, {"SLURM_JOB_ID", "SLURM_JOBID"}); job && !port_given)
    info.master_port = slurm::store_port(*job, first_of(env, {"SLURM_STEP_ID", "SLURM_STEPID"}).value_or(""));
}

}  // namespace

EnvLookup process_env() {
  return [](const std::string& k) -> std::optional<std::string> {
    const char* v = std::getenv(k.c_str());
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
}

uint64_t token_from_string(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

LaunchInfo detect_launch(const EnvLookup& env, const slurm::Directory& slurm) {
  LaunchInfo info;
  info.source = "single";
  for (const Scheme& s : kSchemes) {
    bool has_rank = env(s.rank_var).has_value(), has_size = env(s.size_var).has_value();
    if (!has_rank && !has_size) continue;
    if (has_rank != has_size)
      throw_invalid(std::string(has_rank ? s.size_var : s.rank_var) + " is not set but " +
                    (has_rank ? s.rank_var : s.size_var) + " is: set both");
    info.source = s.source;
    info.world_size = parse_int(env, s.size_var, 1, 1 << 20);
    info.rank = parse_int(env, s.rank_var, 0, info.world_size - 1);
    if (s.local_rank_var && env(s.local_rank_var)) {
      info.local_rank_var = s.local_rank_var;
      info.launcher_local_rank = parse_int(env, s.local_rank_var, 0, info.world_size - 1);
    }
    break;
  }
  auto addr = first_of(env, {"CCB_MASTER_ADDR", "MASTER_ADDR"});
  // Under mpirun, without an explicit store address, MPI itself does the bootstrap.
  info.use_mpi = info.source == "openmpi" && !addr;
  if (addr) info.master_addr = *addr;
  const bool port_given = env("CCB_MASTER_PORT") || env("MASTER_PORT");
  if (env("CCB_MASTER_PORT")) info.master_port = parse_int(env, "CCB_MASTER_PORT", 1, 65535);
  else if (env("MASTER_PORT")) info.master_port = parse_int(env, "MASTER_PORT", 1, 65535);
  if (info.source == "slurm" && info.world_size > 1) place_slurm_store(env, slurm, addr.has_value(), port_given, info);
  JobIdentity id = job_identity(env);
  info.token = id.token;
  info.job_label = id.label;
  if (info.world_size > 1 && !info.use_mpi && !addr && info.source != "ccbench" && info.source != "torchrun" &&
      info.source != "slurm")
    throw_invalid("launched by " + info.source + " without a store address: set CCB_MASTER_ADDR (and CCB_MASTER_PORT) to rank 0's host");
  return info;
}

JobIdentity job_identity(const EnvLookup& env) {
  if (auto t = first_of(env, {"CCB_TOKEN"})) return {token_from_string(*t), "CCB_TOKEN"};
  if (auto job = first_of(env, {"SLURM_JOB_ID", "SLURM_JOBID"})) {
    std::string id = *job;
    if (auto step = first_of(env, {"SLURM_STEP_ID", "SLURM_STEPID"})) id += "." + *step;
    return {token_from_string("slurm:" + id), "Slurm job " + id};
  }
  // torchrun says "none" when no --rdzv-id was given: that identifies nothing.
  if (auto run = first_of(env, {"TORCHELASTIC_RUN_ID"}); run && *run != "none")
    return {token_from_string("torchrun:" + *run), "torchrun run " + *run};
  if (auto job = first_of(env, {"OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE"}))
    return {token_from_string("openmpi:" + *job), "Open MPI job " + *job};
  return {};
}

bool started_by_launcher(const EnvLookup& env) {
  for (const char* v : {"CCB_LAUNCHED", "CCB_RANK", "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (env(v)) return true;
  return false;
}

}  // namespace ccb
