#include "transport/verbs/verbs_resources.h"

#include <arpa/inet.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace ccb::verbs {

CompletionQueue::CompletionQueue(ibv_context* ctx, int entries, ibv_comp_channel* channel) {
  cq_ = ibv_create_cq(ctx, entries, this, channel, 0);
  if (!cq_) throw_errno("ibv_create_cq(" + std::to_string(entries) + " entries)", {-1, -1, "verbs", "setup", errno, ""});
}

CompletionQueue::~CompletionQueue() {
  if (cq_) ibv_destroy_cq(cq_);
}

void CompletionQueue::arm() {
  if (ibv_req_notify_cq(cq_, 0) != 0) throw_errno("ibv_req_notify_cq", {-1, -1, "verbs", "wait", errno, ""});
}

std::string gid_to_string(const ibv_gid& gid) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, gid.raw, text, sizeof text);
  return text;
}

bool gid_is_ipv4_mapped(const ibv_gid& gid) {
  static const unsigned char prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return std::memcmp(gid.raw, prefix, sizeof prefix) == 0;
}

}  // namespace ccb::verbs
