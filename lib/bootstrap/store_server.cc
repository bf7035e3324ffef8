#include "bootstrap/store_server.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <iostream>

#include "bootstrap/frame.h"
#include "core/error.h"

namespace ccb::bootstrap {
namespace {
// A frame must arrive whole within this once its first byte is there.
constexpr auto kFrameTimeout = std::chrono::seconds(5);
constexpr auto kLingerForStragglers = std::chrono::seconds(30);
}  // namespace

StoreServer::StoreServer(const SockAddr& bind, int world_size, uint64_t token)
    : world_size_(world_size), token_(token), listener_(listen_on(bind, 1024)) {
  thread_ = std::thread([this] { serve(); });
}

StoreServer::~StoreServer() {
  // Ranks still connected may have one more barrier to finish with us: wait for them.
  auto until = Clock::now() + kLingerForStragglers;
  while (!stop_ && connected_ranks_ > 0 && Clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void StoreServer::serve() {
  while (!stop_) {
    std::vector<pollfd> fds{{listener_.get(), POLLIN, 0}};
    for (auto& c : clients_) fds.push_back({c.fd.get(), POLLIN, 0});
    if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
    if (fds[0].revents & POLLIN) accept_client();
    for (size_t i = 1; i < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      auto it = std::find_if(clients_.begin(), clients_.end(), [&](const Client& c) { return c.fd.get() == fds[i].fd; });
      if (it == clients_.end() || handle(*it)) continue;
      if (it->rank >= 0) {
        ++departed_;
        --connected_ranks_;
        if (!it->done) fail_job("rank " + std::to_string(it->rank) + " left the job without finishing (it crashed or was killed)");
      }
      for (auto& [key, fdlist] : waiters_) std::erase(fdlist, it->fd.get());
      clients_.erase(it);
    }
    if (departed_ >= world_size_) stop_ = true;
  }
}

void StoreServer::accept_client() {
  Fd fd(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (fd) clients_.push_back(Client{std::move(fd)});
}

void StoreServer::reply(Client& c, int type, const std::string& payload) {
  try {
    send_frame(c.fd.get(), static_cast<FrameType>(type), payload, Clock::now() + kFrameTimeout);
  } catch (const Error&) {
    // The client is gone; its hang-up is noticed and handled by the poll loop.
  }
}

bool StoreServer::handle(Client& c) {
  Frame f;
  try {
    if (!recv_frame(c.fd.get(), f, Clock::now() + kFrameTimeout)) return false;
    if (c.rank < 0 && f.type != FrameType::kHello) return false;  // strangers talk first or leave
    switch (f.type) {
      case FrameType::kHello: {
        uint64_t token = 0;
        int32_t rank = -1;
        if (f.payload.size() != 12) return false;
        std::memcpy(&token, f.payload.data(), 8);
        std::memcpy(&rank, f.payload.data() + 8, 4);
        std::string why;
        if (token != token_) why = "job token mismatch: every rank needs the same CCB_TOKEN";
        else if (rank < 0 || rank >= world_size_) why = "rank " + std::to_string(rank) + " is outside world size " + std::to_string(world_size_) + " (check CCB_WORLD_SIZE on every rank)";
        else if (std::any_of(clients_.begin(), clients_.end(), [&](const Client& o) { return o.rank == rank; }))
          why = "rank " + std::to_string(rank) + " joined twice (two processes got the same CCB_RANK)";
        if (!why.empty()) {
          reply(c, static_cast<int>(FrameType::kError), why);
          return false;
        }
        c.rank = rank;
        ++connected_ranks_;
        reply(c, static_cast<int>(FrameType::kValue), "ok");
        return true;
      }
      case FrameType::kSet: {
        auto nul = f.payload.find('\0');
        if (nul == std::string::npos) return false;
        std::string key = f.payload.substr(0, nul);
        kv_[key] = f.payload.substr(nul + 1);
        answer_waiters(key);
        return true;
      }
      case FrameType::kGet: {
        if (!job_failure_.empty()) reply(c, static_cast<int>(FrameType::kError), job_failure_);
        else if (auto it = kv_.find(f.payload); it != kv_.end()) reply(c, static_cast<int>(FrameType::kValue), it->second);
        else waiters_[f.payload].push_back(c.fd.get());
        return true;
      }
      case FrameType::kAdd: {
        auto nul = f.payload.find('\0');
        if (nul == std::string::npos || f.payload.size() != nul + 9) return false;
        int64_t delta = 0;
        std::memcpy(&delta, f.payload.data() + nul + 1, 8);
        std::string key = f.payload.substr(0, nul);
        int64_t total = (kv_.count(key) ? std::stoll(kv_[key]) : 0) + delta;
        kv_[key] = std::to_string(total);
        reply(c, static_cast<int>(FrameType::kValue), kv_[key]);
        answer_waiters(key);
        return true;
      }
      case FrameType::kDone:
        c.done = true;
        return true;
      default:
        return false;
    }
  } catch (const Error&) {
    return false;  // a malformed or stalled client is dropped, the job goes on
  }
}

void StoreServer::answer_waiters(const std::string& key) {
  auto it = waiters_.find(key);
  if (it == waiters_.end()) return;
  for (int fd : it->second)
    for (auto& c : clients_)
      if (c.fd.get() == fd) reply(c, static_cast<int>(FrameType::kValue), kv_[key]);
  waiters_.erase(it);
}

void StoreServer::fail_job(const std::string& why) {
  if (job_failure_.empty()) job_failure_ = why;
  for (auto& [key, fds] : waiters_)
    for (int fd : fds)
      for (auto& c : clients_)
        if (c.fd.get() == fd) reply(c, static_cast<int>(FrameType::kError), job_failure_);
  waiters_.clear();
}

}  // namespace ccb::bootstrap
