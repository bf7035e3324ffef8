#include "job/rank_job.h"

#include "bootstrap/bootstrap_factory.h"
#include "core/error.h"
#include "core/memory_space.h"
#include "job/address_list.h"
#include "job/nic_pairing.h"
#include "metrics/host_manifest.h"

namespace ccb {

AbortList::Entry::Entry(AbortList& list, Transport& t) : list_(list), transport_(t) {
  std::lock_guard lock(list_.mu_);
  if (!list_.why_.empty()) transport_.abort(list_.why_);
  list_.transports_.push_back(&transport_);
}

AbortList::Entry::~Entry() {
  std::lock_guard lock(list_.mu_);
  std::erase(list_.transports_, &transport_);
}

void AbortList::abort_all(const std::string& why) {
  std::lock_guard lock(mu_);
  if (why_.empty()) why_ = why.empty() ? "the job failed" : why;
  for (Transport* t : transports_) t->abort(why);
}

// More ranks on this rank's machine than CPUs it may run on; the emulated cluster's
// hosts count together, as they share the CPUs.
static bool oversubscribed(const HostLayout& layout, int rank) {
  return static_cast<size_t>(layout.ranks_on_machine_of.at(static_cast<size_t>(rank))) > allowed_cpus().size();
}

// Each rank's listen address and NIC, in one all-gather: the NIC is known only once the
// rank's transport is open on its rail.
static std::vector<std::string> exchange_addresses(Bootstrap& boot, Transport& transport, HostLayout& layout) {
  const std::vector<std::string> gathered =
      boot.allgather(encode_address_list({transport.listen_address(), transport.link().nic}));
  std::vector<std::string> addresses;
  for (int r = 0; r < static_cast<int>(gathered.size()); ++r) {
    std::vector<std::string> pair = decode_address_list(gathered[static_cast<size_t>(r)], 2, r);
    addresses.push_back(std::move(pair[0]));
    layout.nic_of.at(static_cast<size_t>(r)) = std::move(pair[1]);
  }
  return addresses;
}

int run_as_rank(const LaunchInfo& info, const JobSettings& s, const std::function<int(RankContext&)>& body) {
  auto boot = make_bootstrap(info, s.timeout, s.fingerprint);  // a rank that cannot join fails alone
  try {
    // Outlives the transports: each one's entry leaves the list before it goes, so the
    // watch never calls into a transport that is gone.
    AbortList aborts;
    auto watch = boot->watch_job([&aborts](const std::string& why) { aborts.abort_all(why); });
    HostLayout layout = gather_layout(*boot, info);
    check_transport_spans(s.transport, layout);
    JobSettings mine = s;  // on this rank's rail: every transport it opens uses it
    mine.yield = oversubscribed(layout, boot->rank());
    mine.transport = rank_rail(s.transport, layout.local_rank_of.at(static_cast<size_t>(boot->rank())));
    TransportPtr transport = make_transport(mine.transport, boot->rank(), info.token, boot->local_address_hint());
    AbortList::Entry own(aborts, *transport);
    auto addresses = exchange_addresses(*boot, *transport, layout);
    Communicator comm(*transport, boot->rank(), boot->size(), addresses, mine.wait_policy(),
                      memory_space(mine.transport.memory));
    RankContext ctx{*boot, *transport, comm, info, mine, aborts, layout};
    return body(ctx);
  } catch (const std::exception& e) {
    int status = report_error(e);
    boot->abort_job(e.what());
    return status;
  }
}

}  // namespace ccb
