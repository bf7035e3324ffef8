#include "bootstrap/store_state.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "core/error.h"

namespace ccb::bootstrap {
namespace {

constexpr size_t kMaxFailureText = 1000;

std::string printable(std::string_view s, size_t limit) {
  std::string out;
  for (char c : s.substr(0, limit)) out += (c >= 32 && c < 127) ? c : '?';
  return out;
}

}  // namespace

std::vector<std::string> split_gathered(std::string_view payload, int world_size) {
  std::vector<std::string> out;
  while (!payload.empty()) {
    uint32_t n = 0;
    if (payload.size() < 4) throw Error(ErrorKind::kProtocol, "gather answer cut short");
    std::memcpy(&n, payload.data(), 4);
    payload.remove_prefix(4);
    if (payload.size() < n) throw Error(ErrorKind::kProtocol, "gather answer cut short");
    out.emplace_back(payload.substr(0, n));
    payload.remove_prefix(n);
  }
  if (static_cast<int>(out.size()) != world_size)
    throw Error(ErrorKind::kProtocol, "gather answer holds " + std::to_string(out.size()) + " blobs, not " +
                                          std::to_string(world_size));
  return out;
}

StoreState::StoreState(StoreHello owner, int world_size)
    : owner_(std::move(owner)), world_size_(world_size), client_of_rank_(world_size, 0), done_(world_size, false),
      pending_round_(world_size) {}

void StoreState::send(StoreActions& out, ClientId to, FrameType type, std::string payload) {
  out.replies.push_back({to, type, std::make_shared<const std::string>(std::move(payload))});
}

void StoreState::on_frame(ClientId c, const Frame& f, StoreActions& out) {
  auto it = rank_of_.find(c);
  if (it == rank_of_.end()) return hello(c, f, out);
  try {
    request(c, it->second, f, out);
  } catch (const std::exception& e) {  // no request may end the store; the rank is told
    send(out, c, FrameType::kError, std::string("the store could not serve the request: ") + e.what());
  }
}

void StoreState::hello(ClientId c, const Frame& f, StoreActions& out) {
  out.drops.push_back(c);  // unless it joins, below: strangers speak a good hello first or leave
  if (f.type != FrameType::kHello) return;
  StoreHello h;
  try {
    h = parse_hello(f.payload);
  } catch (const Error&) {
    return;
  }
  const bool taken = h.rank >= 0 && h.rank < world_size_ && (client_of_rank_[h.rank] != 0 || done_[h.rank]);
  HelloVerdict v = judge_hello(owner_, world_size_, h, taken);
  if (!v.refusal.empty()) {
    send(out, c, FrameType::kError, v.refusal);
    out.log.push_back("refused a process joining as rank " + std::to_string(h.rank) + ": " + v.refusal);
    if (v.same_job) fail(v.refusal, out);
    return;
  }
  if (!failure_.empty()) return send(out, c, FrameType::kError, failure_);
  out.drops.pop_back();
  rank_of_[c] = h.rank;
  client_of_rank_[h.rank] = c;
  out.joined.push_back(c);
  send(out, c, FrameType::kValue, "ok");
}

void StoreState::request(ClientId c, int rank, const Frame& f, StoreActions& out) {
  const bool asks = f.type == FrameType::kGet || f.type == FrameType::kAdd || f.type == FrameType::kGather;
  if (asks && !failure_.empty()) return send(out, c, FrameType::kError, failure_);
  switch (f.type) {
    case FrameType::kSet: return set(c, f.payload, out);
    case FrameType::kGet: return get(c, f.payload, out);
    case FrameType::kAdd: return add(c, f.payload, out);
    case FrameType::kGather: return gather(c, rank, f.payload, out);
    case FrameType::kDone: done_[rank] = true; return;
    case FrameType::kFail:
      return fail("rank " + std::to_string(rank) + " failed: " + printable(f.payload, kMaxFailureText), out);
    default:
      return send(out, c, FrameType::kError, "unexpected frame type " + std::to_string(static_cast<int>(f.type)));
  }
}

void StoreState::set(ClientId c, const std::string& payload, StoreActions& out) {
  auto nul = payload.find('\0');
  if (nul == std::string::npos) return send(out, c, FrameType::kError, "a set needs key '\\0' value");
  std::string key = payload.substr(0, nul);
  kv_[key] = payload.substr(nul + 1);
  answer_waiters(key, out);
}

void StoreState::get(ClientId c, const std::string& key, StoreActions& out) {
  if (auto it = kv_.find(key); it != kv_.end()) return send(out, c, FrameType::kValue, it->second);
  waiters_[key].push_back(c);
}

void StoreState::add(ClientId c, const std::string& payload, StoreActions& out) {
  auto nul = payload.find('\0');
  if (nul == std::string::npos || payload.size() != nul + 9)
    return send(out, c, FrameType::kError, "an add needs key '\\0' and an 8-byte delta");
  std::string key = payload.substr(0, nul);
  int64_t delta = 0, total = 0;
  std::memcpy(&delta, payload.data() + nul + 1, 8);
  if (auto it = kv_.find(key); it != kv_.end()) {
    const std::string& v = it->second;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), total);
    if (ec != std::errc() || end != v.data() + v.size())
      return send(out, c, FrameType::kError, "key '" + printable(key, 100) + "' holds a value, not a counter");
  }
  if (__builtin_add_overflow(total, delta, &total))
    return send(out, c, FrameType::kError, "counter '" + printable(key, 100) + "' would overflow");
  kv_[key] = std::to_string(total);
  send(out, c, FrameType::kValue, kv_[key]);
  answer_waiters(key, out);
}

void StoreState::gather(ClientId c, int rank, const std::string& payload, StoreActions& out) {
  if (payload.size() < 9) return send(out, c, FrameType::kError, "a gather needs a round and a flag");
  if (pending_round_[rank]) return send(out, c, FrameType::kError, "a second gather before the first was answered");
  uint64_t round = 0;
  std::memcpy(&round, payload.data(), 8);
  const bool return_all = payload[8] != 0;
  Gather& g = gathers_[round];
  if (g.blobs.empty()) {
    g.blobs.resize(world_size_);
    g.return_all = return_all;
  }
  if (g.return_all != return_all || g.blobs[rank])
    return send(out, c, FrameType::kError, "gather round " + std::to_string(round) + " mixes calls");
  g.blobs[rank] = payload.substr(9);
  pending_round_[rank] = round;
  if (++g.arrived < world_size_) return;
  std::string all;
  uint64_t total = 0;
  for (const auto& b : g.blobs) total += 4 + (g.return_all ? b->size() : 0);
  if (total > kMaxAnswerPayload)
    return fail("gather round " + std::to_string(round) + " holds " + std::to_string(total) +
                    " B, more than a store answer may (" + std::to_string(kMaxAnswerPayload) + " B)",
                out);
  if (g.return_all)
    for (const auto& b : g.blobs) {
      const auto n = static_cast<uint32_t>(b->size());
      all.append(reinterpret_cast<const char*>(&n), 4);
      all.append(*b);
    }
  auto shared = std::make_shared<const std::string>(std::move(all));
  for (int r = 0; r < world_size_; ++r) {
    pending_round_[r].reset();
    out.replies.push_back({client_of_rank_[r], FrameType::kValue, shared});
  }
  gathers_.erase(round);
}

void StoreState::answer_waiters(const std::string& key, StoreActions& out) {
  auto it = waiters_.find(key);
  if (it == waiters_.end()) return;
  auto value = std::make_shared<const std::string>(kv_[key]);
  for (ClientId c : it->second) out.replies.push_back({c, FrameType::kValue, value});
  waiters_.erase(it);
}

void StoreState::fail(const std::string& why, StoreActions& out) {
  if (!failure_.empty()) return;
  failure_ = why;
  out.log.push_back("the job failed: " + why);
  // Every rank hears it now, waiting or not: a rank with no request outstanding
  // watches its connection for exactly this (StoreClient::watch).
  auto text = std::make_shared<const std::string>(why);
  for (const auto& [client, rank] : rank_of_) out.replies.push_back({client, FrameType::kError, text});
  waiters_.clear();
  gathers_.clear();
  for (auto& p : pending_round_) p.reset();
}

void StoreState::on_close(ClientId c, StoreActions& out) {
  auto it = rank_of_.find(c);
  if (it == rank_of_.end()) return;
  const int rank = it->second;
  rank_of_.erase(it);
  client_of_rank_[rank] = 0;
  ++departed_;
  for (auto& [key, clients] : waiters_) std::erase(clients, c);
  if (!done_[rank]) fail("rank " + std::to_string(rank) + " left the job without finishing (it crashed or was killed)", out);
}

}  // namespace ccb::bootstrap
