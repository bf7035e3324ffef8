#include "bootstrap/store_server.h"

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>

#include "core/error.h"

namespace ccb::bootstrap {
namespace {

constexpr ClientId kListener = 0;
constexpr size_t kMaxLogLines = 20;  // strangers must not flood rank 0's terminal
constexpr auto kFlushOnClose = std::chrono::seconds(1);
constexpr auto kPauseWithoutFds = std::chrono::milliseconds(100);
constexpr int kMaxAcceptsPerTurn = 64;  // far below StoreLimits::max_strangers

}  // namespace

StoreServer::StoreServer(const SockAddr& bind, StoreHello owner, int world_size, StoreLimits limits)
    : limits_(limits), state_(std::move(owner), world_size), listener_(listen_on(bind, 4096)) {
  address_ = local_address_of(listener_.get());
  set_nonblocking(listener_.get(), true);
  epoll_ = Fd(::epoll_create1(EPOLL_CLOEXEC));
  if (!epoll_) throw_errno("epoll_create1 (rendezvous store)");
  epoll_event ev{EPOLLIN, {.u64 = kListener}};
  if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, listener_.get(), &ev) != 0) throw_errno("epoll_ctl (rendezvous store)");
  thread_ = std::thread([this] { serve(); });
}

StoreServer::~StoreServer() {
  // Ranks still connected may have one more barrier to finish with us: wait for them.
  auto until = Clock::now() + limits_.linger;
  while (!stop_requested_ && !finished_ && connected_ranks_ > 0 && Clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  stop();
  if (thread_.joinable()) thread_.join();
}

void StoreServer::stop(const std::string& failure) {
  std::lock_guard lock(stop_mutex_);
  if (stop_failure_.empty()) stop_failure_ = failure;
  stop_requested_ = true;
}

void StoreServer::serve() {
  try {
    while (!stop_requested_ && !state_.all_left()) serve_once(50);
    std::string failure;
    {
      std::lock_guard lock(stop_mutex_);
      failure = stop_failure_;
    }
    serve_once(0);  // what the ranks sent before the stop, a Fail among it, is heard
    if (!failure.empty()) {
      StoreActions a;
      state_.fail(failure, a);
      apply(a);
    }
    for (auto until = Clock::now() + kFlushOnClose; output_pending() && Clock::now() < until;) serve_once(20);
  } catch (const std::exception& e) {
    log(std::string("stopped: ") + e.what());
  }
  finished_ = true;
}

// Connections are served before new ones are accepted, and only kMaxAcceptsPerTurn of
// those: a rank's hello is then read before enough strangers can arrive after it to
// make it the oldest one waiting, which is the one closed when too many wait.
void StoreServer::serve_once(int timeout_ms) {
  epoll_event events[256];
  int n = ::epoll_wait(epoll_.get(), events, 256, timeout_ms);
  bool arrivals = false;
  for (int i = 0; i < n; ++i) {
    const ClientId id = events[i].data.u64;
    if (id == kListener) {
      arrivals = true;
      continue;
    }
    if (events[i].events & EPOLLOUT) flush(id);
    if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR | EPOLLRDHUP)) read_from(id);
  }
  if (arrivals) accept_pending();
  expire();
  reap();
}

void StoreServer::accept_pending() {
  for (int accepted = 0; accepted < kMaxAcceptsPerTurn; ++accepted) {
    Fd fd(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!fd) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno != EMFILE && errno != ENFILE) return;
      if (evict_oldest_stranger()) {  // a stranger's descriptor is worth less than a rank's
        reap();
        continue;
      }
      rlimit lim{};
      getrlimit(RLIMIT_NOFILE, &lim);
      log("out of file descriptors (ulimit -n is " + std::to_string(lim.rlim_cur) + "): raise it");
      epoll_event ev{0, {.u64 = kListener}};
      ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, listener_.get(), &ev);
      accept_paused_until_ = Clock::now() + kPauseWithoutFds;
      return;
    }
    if (strangers_.size() >= limits_.max_strangers) evict_oldest_stranger();
    set_nodelay(fd.get());  // answers are small and a barrier waits on each
    const ClientId id = next_id_++;
    Connection& c = conns_[id];
    c.fd = std::move(fd);
    c.deadline = Clock::now() + limits_.hello_timeout;
    strangers_.insert(id);
    epoll_event ev{EPOLLIN | EPOLLRDHUP, {.u64 = id}};
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, c.fd.get(), &ev) != 0) to_close_.insert(id);
  }
}

// The oldest connection that has not joined goes; but a rank whose hello sits unread
// in its socket (thousands joining at once) is read first, and joins instead.
bool StoreServer::evict_oldest_stranger() {
  while (!strangers_.empty()) {
    const ClientId oldest = *strangers_.begin();
    read_from(oldest);
    if (!strangers_.count(oldest)) continue;  // it joined, or was refused
    strangers_.erase(oldest);
    to_close_.insert(oldest);
    return true;
  }
  return false;
}

void StoreServer::read_from(ClientId id) {
  char buf[64 << 10];
  for (int reads = 0; reads < 4; ++reads) {  // then the others get a turn
    auto it = conns_.find(id);
    if (it == conns_.end() || to_close_.count(id)) return;
    Connection& c = it->second;
    ssize_t n = ::recv(c.fd.get(), buf, c.joined ? sizeof buf : kMaxHelloPayload + sizeof(FrameHeader), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) {
      to_close_.insert(id);
      return;
    }
    c.reader.feed(buf, static_cast<size_t>(n));
    Frame f;
    try {
      while (!c.closing && c.reader.next(f)) {
        StoreActions a;
        state_.on_frame(id, f, a);
        apply(a);  // may queue this connection's close; `c` stays valid until reap()
      }
    } catch (const Error&) {
      to_close_.insert(id);  // a malformed frame: the connection is not worth keeping
      return;
    }
  }
}

void StoreServer::apply(StoreActions& a) {
  for (ClientId id : a.joined) {
    auto it = conns_.find(id);
    if (it == conns_.end()) continue;
    it->second.joined = true;
    it->second.reader.set_max_payload(kMaxFramePayload);
    strangers_.erase(id);
  }
  connected_ranks_ = state_.connected_ranks();
  for (StoreReply& r : a.replies) {
    auto it = conns_.find(r.to);
    if (it == conns_.end()) continue;
    auto header = std::make_shared<const std::string>(encode_header(r.type, r.payload->size()));
    it->second.out.push_back({std::move(header), 0});
    if (!r.payload->empty()) it->second.out.push_back({std::move(r.payload), 0});
  }
  for (const StoreReply& r : a.replies) flush(r.to);
  for (ClientId id : a.drops) {
    auto it = conns_.find(id);
    if (it == conns_.end() || it->second.closing) continue;
    it->second.closing = true;
    it->second.deadline = Clock::now() + kFlushOnClose;
    strangers_.erase(id);
    closing_.insert(id);
    if (it->second.out.empty()) to_close_.insert(id);
  }
  for (const std::string& line : a.log) log(line);
}

void StoreServer::flush(ClientId id) {
  auto it = conns_.find(id);
  if (it == conns_.end() || to_close_.count(id)) return;
  Connection& c = it->second;
  while (!c.out.empty()) {
    iovec iov[16];
    int n = 0;
    for (auto p = c.out.begin(); p != c.out.end() && n < 16; ++p, ++n)
      iov[n] = {const_cast<char*>(p->data->data()) + p->offset, p->data->size() - p->offset};
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = static_cast<size_t>(n);
    ssize_t sent = ::sendmsg(c.fd.get(), &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && errno == EAGAIN) return watch(id, c, true);
    if (sent < 0) {
      to_close_.insert(id);
      return;
    }
    for (auto left = static_cast<size_t>(sent); left > 0;) {
      Piece& p = c.out.front();
      size_t take = std::min(left, p.data->size() - p.offset);
      p.offset += take;
      left -= take;
      if (p.offset == p.data->size()) c.out.pop_front();
    }
  }
  watch(id, c, false);
  if (c.closing) to_close_.insert(id);
}

void StoreServer::watch(ClientId id, Connection& c, bool writing) {
  if (c.writing == writing) return;
  c.writing = writing;
  epoll_event ev{EPOLLIN | EPOLLRDHUP | (writing ? EPOLLOUT : 0u), {.u64 = id}};
  ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, c.fd.get(), &ev);
}

// Closes what was marked; a rank's departure can fail the job, which queues news for
// the others (and may mark more), so this runs until nothing is left to close.
void StoreServer::reap() {
  while (!to_close_.empty()) {
    const ClientId id = *to_close_.begin();
    to_close_.erase(to_close_.begin());
    auto it = conns_.find(id);
    if (it == conns_.end()) continue;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, it->second.fd.get(), nullptr);
    conns_.erase(it);
    strangers_.erase(id);
    closing_.erase(id);
    StoreActions a;
    state_.on_close(id, a);
    apply(a);
  }
}

void StoreServer::expire() {
  const auto now = Clock::now();
  // Strangers are in accept order, so their deadlines are too.
  while (!strangers_.empty()) {
    auto it = conns_.find(*strangers_.begin());
    if (it != conns_.end() && it->second.deadline > now) break;
    to_close_.insert(*strangers_.begin());
    strangers_.erase(strangers_.begin());
  }
  for (auto it = closing_.begin(); it != closing_.end();) {
    auto c = conns_.find(*it);
    if (c == conns_.end() || c->second.deadline <= now) {
      to_close_.insert(*it);
      it = closing_.erase(it);
    } else {
      ++it;
    }
  }
  if (accept_paused_until_ != Clock::time_point{} && now >= accept_paused_until_) {
    accept_paused_until_ = {};
    epoll_event ev{EPOLLIN, {.u64 = kListener}};
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, listener_.get(), &ev);
  }
}

bool StoreServer::output_pending() const {
  for (const auto& [id, c] : conns_)
    if (!c.out.empty()) return true;
  return false;
}

void StoreServer::log(const std::string& line) {
  if (!limits_.log) return;
  if (log_lines_ > static_cast<int>(kMaxLogLines)) return;
  if (log_lines_++ == static_cast<int>(kMaxLogLines)) return print_line_to_stderr("rank 0: store: further messages not shown");
  print_line_to_stderr("rank 0: store: " + line);
}

}  // namespace ccb::bootstrap
