#include "job/rank_job.h"

#include "bootstrap/bootstrap_factory.h"
#include "core/error.h"

namespace ccb {

int run_as_rank(const LaunchInfo& info, const JobSettings& s, const std::function<int(RankContext&)>& body) {
  auto boot = make_bootstrap(info, s.timeout, s.fingerprint);  // a rank that cannot join fails alone
  try {
    TransportPtr transport = make_transport(s.transport, boot->rank(), info.token, boot->local_address_hint());
    // Destroyed before the transport: the watch never calls into a transport that is gone.
    auto watch = boot->watch_job([t = transport.get()](const std::string& why) { t->abort(why); });
    auto addresses = boot->allgather(transport->listen_address());
    Communicator comm(*transport, boot->rank(), boot->size(), addresses, WaitPolicy{s.spin, s.timeout});
    RankContext ctx{*boot, *transport, comm};
    return body(ctx);
  } catch (const std::exception& e) {
    int status = report_error(e);
    boot->abort_job(e.what());
    return status;
  }
}

}  // namespace ccb
