#include "bootstrap/host_layout.h"

#include <algorithm>
#include <map>

#include "core/error.h"
#include "net/host_key.h"

namespace ccb {
namespace {

// Places travel through the store between ranks of one job: a field holds no tab, and
// a place is small.
constexpr char kSeparator = '\t';
constexpr size_t kMaxPlaceBytes = 4096;

}  // namespace

std::string encode_place(const RankPlace& p) {
  for (const std::string* f : {&p.host_key, &p.host_name, &p.nic})
    if (f->find(kSeparator) != std::string::npos) throw_invalid("a host name or NIC holds a tab: '" + *f + "'");
  return p.host_key + kSeparator + p.host_name + kSeparator + p.nic;
}

RankPlace decode_place(const std::string& text) {
  const size_t a = text.find(kSeparator), b = a == std::string::npos ? a : text.find(kSeparator, a + 1);
  if (text.size() > kMaxPlaceBytes || b == std::string::npos || text.find(kSeparator, b + 1) != std::string::npos || a == 0)
    throw Error(ErrorKind::kProtocol, "a rank's place in the layout is malformed (" + std::to_string(text.size()) + " B)");
  return RankPlace{text.substr(0, a), text.substr(a + 1, b - a - 1), text.substr(b + 1)};
}

std::vector<int> HostLayout::host_major() const {
  std::vector<int> order;
  for (size_t h = 0; h < hosts.size(); ++h)
    for (int r = 0; r < ranks(); ++r)  // by rank is by local rank
      if (host_of.at(static_cast<size_t>(r)) == static_cast<int>(h)) order.push_back(r);
  return order;
}

int HostLayout::ranks_per_host() const {
  if (ranks_on.empty()) return 0;
  for (int n : ranks_on)
    if (n != ranks_on.front()) return 0;
  return ranks_on.front();
}

std::string HostLayout::ranks_on_text() const {
  std::string out;
  for (size_t h = 0; h < hosts.size(); ++h)
    out += (h ? ", " : "") + hosts[h] + ": " + std::to_string(ranks_on[h]) + (ranks_on[h] == 1 ? " rank" : " ranks");
  return out;
}

std::string HostLayout::place_text(int rank) const {
  const std::string& nic = nic_of.at(rank);
  return hosts.at(host_of.at(rank)) + (nic.empty() ? "" : ", nic " + nic);
}

std::vector<std::string> HostLayout::nics_on_host_of(int rank) const {
  std::vector<std::string> nics;
  for (int r = 0; r < ranks(); ++r)
    if (same_host(r, rank) && !nic_of.at(r).empty() && std::find(nics.begin(), nics.end(), nic_of.at(r)) == nics.end())
      nics.push_back(nic_of.at(r));
  return nics;
}

std::string HostLayout::rails_text() const {
  bool rails = false;
  for (int r = 0; r < ranks() && !rails; ++r) rails = nics_on_host_of(r).size() > 1;
  if (!rails) return "";
  std::string out;
  for (int h = 0; h < static_cast<int>(hosts.size()); ++h) {
    out += (h ? "; " : "") + hosts[h] + ":";
    bool first = true;
    for (int r = 0; r < ranks(); ++r)
      if (host_of.at(r) == h) {
        out += std::string(first ? " " : ", ") + "rank " + std::to_string(r) + " " + nic_of.at(r);
        first = false;
      }
  }
  return out;
}

HostLayout layout_of(const std::vector<RankPlace>& places) {
  HostLayout l;
  std::map<std::string, int> index_of_key;
  std::map<std::string, int> names_seen;
  std::map<std::string, int> ranks_on_machine;
  for (const RankPlace& p : places) ++ranks_on_machine[machine_of_key(p.host_key)];
  for (const RankPlace& p : places) {
    l.ranks_on_machine_of.push_back(ranks_on_machine[machine_of_key(p.host_key)]);
    auto [it, fresh] = index_of_key.emplace(p.host_key, static_cast<int>(l.hosts.size()));
    if (fresh) {
      const int same_name = ++names_seen[p.host_name];
      l.hosts.push_back(same_name == 1 ? p.host_name : p.host_name + "#" + std::to_string(same_name));
      l.ranks_on.push_back(0);
    }
    l.host_of.push_back(it->second);
    l.local_rank_of.push_back(l.ranks_on[it->second]++);
    l.nic_of.push_back(p.nic);
  }
  return l;
}

std::string check_launcher_local_rank(const HostLayout& layout, int rank, const LaunchInfo& info) {
  if (info.launcher_local_rank < 0) return "";
  const int found = layout.local_rank_of.at(rank);
  if (info.launcher_local_rank == found) return "";
  const int host = layout.host_of.at(rank);
  return info.local_rank_var + "=" + std::to_string(info.launcher_local_rank) + " but rank " + std::to_string(rank) +
         " is local rank " + std::to_string(found) + " of the " + std::to_string(layout.ranks_on.at(host)) +
         " ranks on host " + layout.hosts.at(host) +
         ": the launcher and the hosts disagree on who shares a host (a stale " + info.local_rank_var +
         " in the environment? unset it, or start every rank of a host from one launcher)";
}

HostLayout gather_layout(Bootstrap& boot, const LaunchInfo& info, const std::string& nic) {
  const std::vector<std::string> texts = boot.allgather(encode_place({host_key(), host_name(), nic}));
  std::vector<RankPlace> places;
  places.reserve(texts.size());
  for (const std::string& t : texts) places.push_back(decode_place(t));
  HostLayout layout = layout_of(places);
  if (std::string why = check_launcher_local_rank(layout, boot.rank(), info); !why.empty()) throw_invalid(why);
  return layout;
}

}  // namespace ccb
