// Where each rank of a job runs: its host, its local rank there, its NIC. Every rank
// learns it at bootstrap from one all-gather of its place, so the layout is the same on
// every rank and comes from what the hosts are, not from what a launcher claims; a
// launcher's own local rank (LOCAL_RANK, SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK) is
// checked against it.
#pragma once
#include <string>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "bootstrap/launch_env.h"

namespace ccb {

// What one rank says of itself.
struct RankPlace {
  std::string host_key;   // net/host_key.h: equal keys share a host
  std::string host_name;  // as people read it
  std::string nic;        // the rank's link ("" when it has none, as shm)
};
std::string encode_place(const RankPlace& p);
RankPlace decode_place(const std::string& text);  // throws kProtocol on a malformed place

struct HostLayout {
  std::vector<std::string> hosts;  // one name per host, ordered by each host's lowest rank
  std::vector<int> host_of;        // rank -> index into hosts
  std::vector<int> local_rank_of;  // rank -> its order among its host's ranks (by rank)
  std::vector<int> ranks_on;       // host -> how many ranks it holds
  std::vector<std::string> nic_of; // rank -> its NIC
  // rank -> how many ranks run on its machine (its kernel), counting every emulated host
  // in a namespace of it: the ranks that share its CPUs.
  std::vector<int> ranks_on_machine_of;

  int ranks() const { return static_cast<int>(host_of.size()); }
  bool same_host(int a, int b) const { return host_of.at(a) == host_of.at(b); }
  // K when every host holds K ranks; 0 when the hosts hold different counts.
  int ranks_per_host() const;
  // "node-a: 2 ranks, node-b: 1 rank": each host with the ranks it holds, for errors.
  std::string ranks_on_text() const;
  // "node-c, nic eth0": equal strings share a host and a NIC (what scan judges).
  std::string place_text(int rank) const;
  // "node-a: rank 0 eth1, rank 1 eth2; node-b: ..." when some host's ranks drive two
  // NICs or more (rails); "" otherwise.
  std::string rails_text() const;
  // The distinct NICs of `rank`'s host, by local rank: its rails.
  std::vector<std::string> nics_on_host_of(int rank) const;
  // Every rank, host by host and each host's by local rank: the order in which a job's
  // positions (Megatron's ranks, the hierarchy's grid) fill the hosts, whatever numbers
  // the launcher gave. 0, 1, ... when ranks are numbered host by host.
  std::vector<int> host_major() const;
};

// Pure, so tested alone: hosts told apart by key; two hosts of one name are shown as
// "name", "name#2".
HostLayout layout_of(const std::vector<RankPlace>& places);

// "" when the launcher's local rank agrees with the layout, or says none; else the
// one-line error, naming the variable, both numbers and the fix.
std::string check_launcher_local_rank(const HostLayout& layout, int rank, const LaunchInfo& info);

// Every rank at once: gathers the places, builds the layout, checks the launcher's claim
// (kInvalidArgument when it disagrees). `nic` may be "" when the rank's NIC depends on
// the layout (its rail, by local rank); the caller then fills nic_of.
HostLayout gather_layout(Bootstrap& boot, const LaunchInfo& info, const std::string& nic = "");

}  // namespace ccb
