#include "bootstrap/store_client.h"

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <thread>

#include "bootstrap/frame.h"
#include "core/error.h"

namespace ccb::bootstrap {

class StoreClient::Watcher final : public JobWatch {
 public:
  Watcher(StoreClient& client, std::function<void(const std::string&)> on_failure)
      : client_(client), on_failure_(std::move(on_failure)), thread_([this] { run(); }) {}
  ~Watcher() override {
    stop_ = true;
    thread_.join();
  }

 private:
  void run() {
    while (!stop_) {
      pollfd p{client_.fd_.get(), POLLIN | POLLRDHUP, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      std::unique_lock lock(client_.io_, std::try_to_lock);
      if (!lock) {  // a request is under way: its answer is not ours to read
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      if (std::string why = unasked_news(); !why.empty()) return on_failure_(why);
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // something else: look again later
    }
  }

  // With no request outstanding, the store speaks only to say the job failed; a closed
  // connection says it is gone. Peeks, so a later request still reads the error.
  std::string unasked_news() {
    char buf[sizeof(FrameHeader) + 4096];
    ssize_t n = ::recv(client_.fd_.get(), buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
      return "the rendezvous store (rank 0) is gone: rank 0 failed or was killed";
    FrameHeader h{};
    if (n < static_cast<ssize_t>(sizeof h)) return {};
    std::memcpy(&h, buf, sizeof h);
    if (!check_header(h, 4096).empty() || h.type != static_cast<uint16_t>(FrameType::kError)) return {};
    if (static_cast<size_t>(n) < sizeof h + h.length) return {};
    return std::string(buf + sizeof h, h.length);
  }

  StoreClient& client_;
  std::function<void(const std::string&)> on_failure_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

StoreClient::StoreClient(const SockAddr& master, StoreHello hello, std::chrono::milliseconds timeout)
    : master_(master), rank_(hello.rank), timeout_(timeout) {
  ErrorContext ctx{rank_, 0, "bootstrap", "connect to the store", 0, ""};
  try {
    fd_ = connect_to(master, deadline(), /*retry_refused=*/true);
  } catch (const Error& e) {
    ctx.sys_errno = e.context().sys_errno;
    throw Error(ErrorKind::kTimeout,
                "no rendezvous store answered at " + master.to_string() +
                    ": is rank 0 running, and are CCB_MASTER_ADDR/CCB_MASTER_PORT right?",
                ctx);
  }
  set_nodelay(fd_.get());
  std::lock_guard lock(io_);
  request(FrameType::kHello, encode_hello(hello));
  expect_value("join the job", ErrorKind::kInvalidArgument);  // refused: the flags or the job id are wrong
}

StoreClient::~StoreClient() {
  try {
    std::lock_guard lock(io_);
    request(FrameType::kDone, {});
  } catch (const std::exception&) {
    // The store is gone already; nothing to tell it.
  }
}

void StoreClient::request(FrameType type, const std::string& payload) {
  try {
    send_frame(fd_.get(), type, payload, deadline());
  } catch (const Error& e) {
    throw Error(e.kind(), e.message() + " (store at " + master_.to_string() + ")", {rank_, 0, "bootstrap", "request", 0, ""});
  }
}

std::string StoreClient::expect_value(const char* what, ErrorKind refusal) {
  Frame f;
  ErrorContext ctx{rank_, 0, "bootstrap", what, 0, ""};
  bool got = false;
  try {
    got = recv_frame(fd_.get(), f, deadline(), kMaxAnswerPayload);
  } catch (const Error& e) {
    throw Error(e.kind(), e.message() + " (store at " + master_.to_string() + ")", ctx);
  }
  if (!got) throw Error(ErrorKind::kPeerLost, "the rendezvous store (rank 0) closed the connection", ctx);
  if (f.type == FrameType::kError) throw Error(refusal, "the store refused: " + f.payload, ctx);
  if (f.type != FrameType::kValue) throw Error(ErrorKind::kProtocol, "unexpected reply from the store", ctx);
  return f.payload;
}

void StoreClient::set(const std::string& key, const std::string& value) {
  std::lock_guard lock(io_);
  request(FrameType::kSet, key + '\0' + value);
}

std::string StoreClient::get(const std::string& key) {
  std::lock_guard lock(io_);
  request(FrameType::kGet, key);
  return expect_value("wait for other ranks");
}

int64_t StoreClient::add(const std::string& key, int64_t delta) {
  std::string payload = key + '\0' + std::string(8, '\0');
  std::memcpy(payload.data() + key.size() + 1, &delta, 8);
  std::lock_guard lock(io_);
  request(FrameType::kAdd, payload);
  std::string total = expect_value("count");
  int64_t n = 0;
  std::from_chars(total.data(), total.data() + total.size(), n);
  return n;
}

std::string StoreClient::gather(uint64_t round, const std::string& blob, bool return_all) {
  std::string payload(reinterpret_cast<const char*>(&round), 8);
  payload += static_cast<char>(return_all ? 1 : 0);
  payload += blob;
  std::lock_guard lock(io_);
  request(FrameType::kGather, payload);
  return expect_value(return_all ? "all-gather" : "barrier");
}

void StoreClient::fail(const std::string& why) noexcept {
  try {
    std::lock_guard lock(io_);
    send_frame(fd_.get(), FrameType::kFail, why.substr(0, 1000), Clock::now() + std::chrono::seconds(1));
  } catch (const std::exception&) {
    // The store is gone: the other ranks hear that instead.
  }
}

std::string StoreClient::local_ip() const { return local_address_of(fd_.get()).ip(); }

std::unique_ptr<JobWatch> StoreClient::watch(std::function<void(const std::string&)> on_failure) {
  return std::make_unique<Watcher>(*this, std::move(on_failure));
}

}  // namespace ccb::bootstrap
