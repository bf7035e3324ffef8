#include "bootstrap/store_client.h"

#include <cstring>

#include "bootstrap/frame.h"
#include "core/error.h"

namespace ccb::bootstrap {

StoreClient::StoreClient(const SockAddr& master, int rank, uint64_t token, std::chrono::milliseconds timeout)
    : master_(master), rank_(rank), timeout_(timeout) {
  ErrorContext ctx{rank, 0, "bootstrap", "connect to the store", 0};
  try {
    fd_ = connect_to(master, deadline(), /*retry_refused=*/true);
  } catch (const Error& e) {
    ctx.sys_errno = e.context().sys_errno;
    throw Error(ErrorKind::kTimeout,
                "no rendezvous store answered at " + master.to_string() +
                    ": is rank 0 running, and are CCB_MASTER_ADDR/CCB_MASTER_PORT right?",
                ctx);
  }
  std::string hello(12, '\0');
  std::memcpy(hello.data(), &token, 8);
  int32_t r = rank;
  std::memcpy(hello.data() + 8, &r, 4);
  send_frame(fd_.get(), FrameType::kHello, hello, deadline());
  expect_value("join the job");
}

StoreClient::~StoreClient() {
  try {
    send_frame(fd_.get(), FrameType::kDone, {}, deadline());
  } catch (const Error&) {
    // The server is gone already; nothing to tell it.
  }
}

std::string StoreClient::expect_value(const char* what) {
  Frame f;
  ErrorContext ctx{rank_, 0, "bootstrap", what, 0};
  bool got = false;
  try {
    got = recv_frame(fd_.get(), f, deadline());
  } catch (const Error& e) {
    throw Error(e.kind(), e.message() + " (store at " + master_.to_string() + ")", ctx);
  }
  if (!got) throw Error(ErrorKind::kPeerLost, "the rendezvous store (rank 0) closed the connection", ctx);
  if (f.type == FrameType::kError) throw Error(ErrorKind::kPeerLost, "the store refused: " + f.payload, ctx);
  if (f.type != FrameType::kValue) throw Error(ErrorKind::kProtocol, "unexpected reply from the store", ctx);
  return f.payload;
}

void StoreClient::set(const std::string& key, const std::string& value) {
  send_frame(fd_.get(), FrameType::kSet, key + '\0' + value, deadline());
}

std::string StoreClient::get(const std::string& key) {
  send_frame(fd_.get(), FrameType::kGet, key, deadline());
  return expect_value("wait for other ranks");
}

int64_t StoreClient::add(const std::string& key, int64_t delta) {
  std::string payload = key + '\0' + std::string(8, '\0');
  std::memcpy(payload.data() + key.size() + 1, &delta, 8);
  send_frame(fd_.get(), FrameType::kAdd, payload, deadline());
  return std::stoll(expect_value("barrier"));
}

std::string StoreClient::local_ip() const { return local_address_of(fd_.get()).ip(); }

}  // namespace ccb::bootstrap
