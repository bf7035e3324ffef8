#include "job/rank_job.h"

#include "bootstrap/bootstrap_factory.h"
#include "core/error.h"

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

int run_as_rank(const LaunchInfo& info, const JobSettings& s, const std::function<int(RankContext&)>& body) {
  auto boot = make_bootstrap(info, s.timeout, s.fingerprint);  // a rank that cannot join fails alone
  try {
    TransportPtr transport = make_transport(s.transport, boot->rank(), info.token, boot->local_address_hint());
    // Destroyed before the transport: the watch never calls into a transport that is gone.
    AbortList aborts;
    AbortList::Entry own(aborts, *transport);
    auto watch = boot->watch_job([&aborts](const std::string& why) { aborts.abort_all(why); });
    const HostLayout layout = gather_layout(*boot, info, transport->link().nic);
    check_transport_spans(s.transport, layout);
    auto addresses = boot->allgather(transport->listen_address());
    Communicator comm(*transport, boot->rank(), boot->size(), addresses, WaitPolicy{s.spin, s.timeout});
    RankContext ctx{*boot, *transport, comm, info, s, aborts, layout};
    return body(ctx);
  } catch (const std::exception& e) {
    int status = report_error(e);
    boot->abort_job(e.what());
    return status;
  }
}

}  // namespace ccb
