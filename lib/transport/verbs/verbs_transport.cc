#include "transport/verbs/verbs_transport.h"

#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <sstream>

#include "core/error.h"
#include "transport/verbs/verbs_connection.h"
#include "transport/verbs/verbs_rdmacm.h"

namespace ccb::verbs {
namespace {

void validate(const VerbsOptions& o) {
  if (o.qps < 1 || o.qps > kMaxQps) throw_invalid("--qps must be between 1 and " + std::to_string(kMaxQps) + ", got " + std::to_string(o.qps));
  if (o.gid_index < -1 || o.gid_index > 1023) throw_invalid("--gid-index must be between 0 and 1023");
  if (o.port < 0 || o.port > 255) throw_invalid("--ib-port must be between 1 and 255");
  if (o.timeout < 0 || o.timeout > 31) throw_invalid("--ib-timeout must be between 0 and 31 (4.096 us * 2^N)");
  if (o.retry_count < 0 || o.retry_count > 7) throw_invalid("--ib-retry must be between 0 and 7");
  if (o.rnr_retry < 0 || o.rnr_retry > 7) throw_invalid("--ib-rnr-retry must be between 0 and 7 (7: forever)");
  if (o.traffic_class < 0 || o.traffic_class > 255) throw_invalid("--ib-tc must be between 0 and 255");
  if (o.service_level < 0 || o.service_level > 15) throw_invalid("--ib-sl must be between 0 and 15");
  if (o.min_part < 4096) throw_invalid("the verbs part size must be at least 4096 B");
}

constexpr auto kLivenessPeriod = std::chrono::milliseconds(2);

}  // namespace

VerbsTransport::VerbsTransport(int rank, uint64_t token, VerbsOptions opts, const std::string& advertise) {
  validate(opts);
  handles_.rank = rank, handles_.token = token, handles_.opts = opts, handles_.abort = &abort_;
  std::unique_ptr<RdmaCmLinkMaker> cm;
  if (opts.connect_mode == VerbsConnectMode::kRdmaCm) {
    cm = std::make_unique<RdmaCmLinkMaker>(handles_, advertise);
    handles_.ctx = cm->context();
  } else {
    owned_context_ = open_device(opts);
    handles_.ctx = owned_context_.get();
  }
  handles_.port = choose_port(handles_.ctx, opts);
  pd_.reset(ibv_alloc_pd(handles_.ctx));
  if (!pd_) throw_errno("ibv_alloc_pd(" + handles_.port.device + ")", {rank, -1, "verbs", "setup", errno, handles_.port.short_name()});
  handles_.pd = pd_.get();
  if (opts.completion == VerbsCompletionMode::kEvent) {
    channel_.reset(ibv_create_comp_channel(handles_.ctx));
    if (!channel_) throw_errno("ibv_create_comp_channel", {rank, -1, "verbs", "setup", errno, handles_.port.short_name()});
    fcntl(channel_->fd, F_SETFL, fcntl(channel_->fd, F_GETFL) | O_NONBLOCK);
    handles_.channel = channel_.get();
  }
  cache_ = std::make_unique<RegistrationCache>(pd_.get(), handles_.port.device);
  if (cm) links_ = std::move(cm);
  else links_ = make_native_link_maker(handles_, advertise);
}

VerbsTransport::~VerbsTransport() = default;

std::string VerbsTransport::describe() const {
  const auto& o = handles_.opts;
  std::ostringstream s;
  s << "verbs " << handles_.port.describe() << " qps=" << o.qps << " " << links_->describe()
    << " completion=" << (o.completion == VerbsCompletionMode::kEvent ? "event" : "poll");
  if (o.traffic_class) s << " tc=" << o.traffic_class;
  if (o.service_level) s << " sl=" << o.service_level;
  return s.str();
}

ConnectionPtr VerbsTransport::connect(int peer, const std::string& address, Deadline deadline) {
  return std::make_unique<VerbsConnection>(*this, peer, links_->connect(peer, address, deadline), handles_.opts);
}

ConnectionPtr VerbsTransport::accept(int peer, Deadline deadline) {
  return std::make_unique<VerbsConnection>(*this, peer, links_->accept(peer, deadline), handles_.opts);
}

MemoryRegionPtr VerbsTransport::register_memory(void* base, size_t bytes) {
  try {
    return std::make_unique<VerbsMemoryRegion>(base, bytes, cache_->acquire(base, bytes));
  } catch (const Error& e) {
    ErrorContext c = e.context();
    c.rank = handles_.rank;
    throw Error(e.kind(), e.message(), c);
  }
}

void VerbsTransport::detach(VerbsConnection& c) {
  connections_.erase(std::remove(connections_.begin(), connections_.end(), &c), connections_.end());
}

bool VerbsTransport::progress() {
  rethrow_failure();
  bool moved = false;
  for (auto* c : connections_) moved = c->poll() || moved;
  if (Clock::now() >= next_liveness_check_) check_liveness(0);
  rethrow_failure();
  return moved;
}

void VerbsTransport::rethrow_failure() const {
  if (abort_.raised()) throw Error(ErrorKind::kAborted, "aborted: " + abort_.reason(), {handles_.rank, -1, "verbs", "wait", 0, handles_.port.short_name()});
  if (failure_) std::rethrow_exception(failure_);
}

// A peer's socket (or rdma_cm channel) turning readable means it left.
void VerbsTransport::check_liveness(int timeout_ms) {
  next_liveness_check_ = Clock::now() + kLivenessPeriod;
  std::vector<pollfd> fds;
  std::vector<VerbsConnection*> owners;
  fds.push_back({abort_.fd(), POLLIN, 0});
  owners.push_back(nullptr);
  if (channel_ && timeout_ms > 0) fds.push_back({channel_->fd, POLLIN, 0}), owners.push_back(nullptr);
  for (auto* c : connections_)
    if (c->liveness_fd() >= 0) fds.push_back({c->liveness_fd(), POLLIN, 0}), owners.push_back(c);
  if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return;
  for (size_t i = 0; i < fds.size(); ++i)
    if (owners[i] && fds[i].revents) owners[i]->check_liveness();
  if (channel_) read_channel_events();
}

void VerbsTransport::read_channel_events() {
  ibv_cq* cq = nullptr;
  void* cq_context = nullptr;
  while (ibv_get_cq_event(channel_.get(), &cq, &cq_context) == 0) ibv_ack_cq_events(cq, 1);
}

void VerbsTransport::wait_for_progress(std::chrono::microseconds timeout) {
  const auto until = Clock::now() + timeout;
  if (!channel_) {  // poll mode: spin on the CQs, still noticing dead peers
    while (!progress() && Clock::now() < until) {
    }
    return;
  }
  for (auto* c : connections_) c->cq().arm();
  if (progress()) return;  // a completion that raced the arming
  int ms = static_cast<int>(std::max<long long>(1, (timeout.count() + 999) / 1000));
  check_liveness(ms);
}

void VerbsTransport::abort(const std::string& why) { abort_.raise(why); }

}  // namespace ccb::verbs
