#include "run_hier.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <utility>

#include "algo/collectives.h"
#include "core/error.h"
#include "run_command.h"

#include "core/units.h"

namespace ccb::cli {

bool RunCommand::runs_hier() const {
  const std::vector<Algorithm> list = algorithm_list();
  return std::find(list.begin(), list.end(), Algorithm::kHier) != list.end();
}

// A profile's entries are each their own collective; auto decides each one as it does
// a sweep's sizes (hier for those that have it, above the threshold).
bool RunCommand::auto_may_run_hier() const {
  if (algorithm_list() != std::vector<Algorithm>{Algorithm::kAuto} || !trace.empty() || !duration.empty() ||
      !sweep.empty() || !parallel.empty())
    return false;
  return !profiles.empty() || describe(find_collective(collective).kind).hierarchical;
}

bool RunCommand::auto_runs_hier(const HostLayout& layout) const {
  return auto_may_run_hier() && layout.hosts.size() > 1 && layout.ranks_per_host() > 1;
}

void add_host_level_options(CLI::App& app, RunCommand& c) {
  app.add_option("--intra", c.intra, "--algo hier (or auto's hier) within a host: shm, or same (the --transport of the job)")
      ->check(CLI::IsMember({"shm", "same"}))->capture_default_str();
  app.add_option("--inter-algo", c.inter_algo, "--algo hier (or auto's hier) across hosts: auto (by size), ring, tree or rd")
      ->check(CLI::IsMember({"auto", "ring", "tree", "rd"}))->capture_default_str();
  app.add_option("--ranks-per-host", c.ranks_per_host,
                 "Ranks each host must hold (checked against the hosts the ranks find; it must divide --np); 0: any")
      ->check(CLI::Range(0, 1024))->capture_default_str();
}

HostLevelsPlan RunCommand::host_levels_plan(const JobSettings& settings, uint64_t job_token) const {
  HostLevelsPlan plan{settings.transport, settings.transport, parse_algorithm(inter_algo), job_token,
                      settings.wait_policy()};
  if (intra == "shm") plan.intra.name = "shm";
  return plan;
}

// --ranks-per-host is what the user expects of the hosts; the store found what they are.
static void check_ranks_per_host(const RunCommand& cmd, const HostLayout& layout) {
  if (cmd.ranks_per_host == 0 || layout.ranks_per_host() == cmd.ranks_per_host) return;
  throw_invalid("--ranks-per-host " + std::to_string(cmd.ranks_per_host) + " but the ranks found " +
                std::to_string(layout.hosts.size()) + " host(s) holding " + layout.ranks_on_text() +
                ": start that many ranks on each host (cluster run --ranks-per-host), or drop the flag");
}

std::unique_ptr<HostLevels> open_host_levels(const RunCommand& cmd, RankContext& rank) {
  check_ranks_per_host(cmd, rank.layout);
  if (!cmd.runs_hier() && !cmd.auto_runs_hier(rank.layout)) return nullptr;
  return std::make_unique<HostLevels>(rank.boot, rank.layout, cmd.host_levels_plan(rank.settings, rank.info.token),
                                      &rank.aborts);
}

std::string nic_bytes_text(const CounterRate& c, const HostLayout& layout) {
  std::string out;
  for (const auto& [rank, bytes] : c.per_counter)
    out += (out.empty() ? "" : ", ") + layout.hosts.at(layout.host_of.at(rank)) + " " + layout.nic_of.at(rank) + " " +
           format_bytes(bytes);
  return out;
}

// What runs within the host before and after the hosts exchange; "" where nothing does.
static std::pair<std::string, std::string> host_legs(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::kReduceScatter: return {"pack and reduce-scatter", ""};
    case CollectiveKind::kAllGather: return {"", "all-gather and unpack"};
    case CollectiveKind::kBroadcast: return {"scatter on the root's host", "all-gather"};
    default: return {"reduce-scatter", "all-gather"};
  }
}

// --algo hier: where a call's time went, rank 0's view, and what each NIC sent.
void print_hier_legs(const SizeResult& r, CollectiveKind kind, const std::string& over, const HostLayout& layout) {
  if (!r.legs) return;
  const auto [before, after] = host_legs(kind);
  char figure[64];
  std::string line = "# hier " + format_bytes(r.bytes) + ":";
  if (!before.empty()) {
    std::snprintf(figure, sizeof figure, " within the host %.1f us", r.legs->intra_before_us);
    line += figure + (" (" + before + " over " + over + ") +");
  }
  std::snprintf(figure, sizeof figure, " across hosts %.1f us", r.legs->inter_us);
  line += figure + (" (" + std::string(algorithm_name(r.legs->inter_algorithm)) + ")");
  if (!after.empty()) {
    std::snprintf(figure, sizeof figure, " + within %.1f us", r.legs->intra_after_us);
    line += figure + (" (" + after + ")");
  }
  std::cout << line << "\n";
  if (r.counter) std::cout << "# hier " << format_bytes(r.bytes) << ": sent by each NIC " << nic_bytes_text(*r.counter, layout) << "\n";
  std::cout << std::flush;
}

}  // namespace ccb::cli
