// ccb-delay-queue: a fixed one-way delay for kernels without sch_netem.
//
// tools/netns/cluster sends a host's incoming packets to an NFQUEUE (iptables) and runs
// this program in that host's namespace. It holds each packet for --delay, then accepts
// it. Packets reach userspace as metadata only (no payload copy) and unsegmented (GSO),
// so a few thousand verdicts a second carry gigabits. The delay is constant, so the
// queue stays FIFO and one batch verdict releases every packet that is due.
//
//   ccb-delay-queue --queue N --delay-us D [--max-packets K]
//
// It prints "ready" once bound, and on SIGTERM/SIGINT the packets it still holds are
// dropped with the queue, as a pulled cable would drop them.
// glibc's socket headers first: linux/netfilter.h would otherwise define in_addr itself.
#include <arpa/inet.h>
#include <poll.h>
#include <sys/socket.h>

#include <libnetfilter_queue/libnetfilter_queue.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink_queue.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

volatile std::sig_atomic_t g_stop = 0;

std::int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

struct Held {
  std::uint32_t id;
  std::int64_t due_ns;
};

class DelayQueue {
 public:
  DelayQueue(unsigned queue, std::int64_t delay_ns, std::uint32_t max_packets)
      : delay_ns_(delay_ns) {
    handle_.reset(nfq_open());
    if (!handle_) fail("nfq_open (needs root and CONFIG_NETFILTER_NETLINK_QUEUE)");
    queue_ = nfq_create_queue(handle_.get(), static_cast<std::uint16_t>(queue), &DelayQueue::on_packet, this);
    if (!queue_) fail("nfq_create_queue " + std::to_string(queue) + " (is another ccb-delay-queue bound to it?)");
    if (nfq_set_mode(queue_, NFQNL_COPY_META, 0) < 0) fail("nfq_set_mode");
    if (nfq_set_queue_maxlen(queue_, max_packets) < 0) fail("nfq_set_queue_maxlen");
    // Unsegmented GSO packets; without the flag the kernel splits every 64 KiB send.
    if (nfq_set_queue_flags(queue_, NFQA_CFG_F_GSO, NFQA_CFG_F_GSO) < 0) fail("nfq_set_queue_flags GSO");
    nfnl_rcvbufsiz(nfq_nfnlh(handle_.get()), 8u << 20);
  }
  DelayQueue(const DelayQueue&) = delete;
  DelayQueue& operator=(const DelayQueue&) = delete;
  ~DelayQueue() {
    if (queue_) nfq_destroy_queue(queue_);
  }

  void run() {
    const int fd = nfq_fd(handle_.get());
    while (!g_stop) {
      release_due();
      pollfd pfd{fd, POLLIN, 0};
      timespec wait = time_to_next();
      const int ready = ppoll(&pfd, 1, held_.empty() ? nullptr : &wait, nullptr);
      if (ready < 0 && errno != EINTR) fail("ppoll");
      if (ready > 0) drain(fd);
    }
  }

  std::uint64_t overflows() const { return overflows_; }

 private:
  struct HandleCloser {
    void operator()(nfq_handle* h) const { nfq_close(h); }
  };

  [[noreturn]] static void fail(const std::string& what) {
    throw std::runtime_error(what + ": " + std::strerror(errno));
  }

  static int on_packet(nfq_q_handle*, nfgenmsg*, nfq_data* nfa, void* self) {
    auto* me = static_cast<DelayQueue*>(self);
    const nfqnl_msg_packet_hdr* hdr = nfq_get_msg_packet_hdr(nfa);
    if (hdr) me->held_.push_back({ntohl(hdr->packet_id), now_ns() + me->delay_ns_});
    return 0;
  }

  void drain(int fd) {
    alignas(8) static char buf[1 << 16];
    for (;;) {
      const ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) {
        nfq_handle_packet(handle_.get(), buf, static_cast<int>(n));
        continue;
      }
      if (n < 0 && errno == ENOBUFS) {  // the kernel dropped packets: a full queue, like netem's limit
        ++overflows_;
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
      fail("recv from the netfilter queue");
    }
  }

  // One batch verdict accepts every packet id up to the last one that is due.
  void release_due() {
    const std::int64_t now = now_ns();
    std::uint32_t last = 0;
    bool any = false;
    while (!held_.empty() && held_.front().due_ns <= now) {
      last = held_.front().id;
      any = true;
      held_.pop_front();
    }
    if (any && nfq_set_verdict_batch(queue_, last, NF_ACCEPT) < 0) fail("nfq_set_verdict_batch");
  }

  timespec time_to_next() const {
    if (held_.empty()) return {};
    const std::int64_t left = std::max<std::int64_t>(0, held_.front().due_ns - now_ns());
    return {static_cast<time_t>(left / 1'000'000'000), static_cast<long>(left % 1'000'000'000)};
  }

  std::unique_ptr<nfq_handle, HandleCloser> handle_;
  nfq_q_handle* queue_ = nullptr;
  std::int64_t delay_ns_;
  std::deque<Held> held_;
  std::uint64_t overflows_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Holds each packet of an NFQUEUE for a fixed delay (tools/netns/cluster --delay)"};
  unsigned queue = 0;
  double delay_us = 0;
  std::uint32_t max_packets = 10000;
  app.add_option("--queue", queue, "NFQUEUE number")->required()->check(CLI::Range(0u, 65535u));
  app.add_option("--delay-us", delay_us, "one-way delay in microseconds")->required()->check(CLI::Range(0.0, 1e7));
  app.add_option("--max-packets", max_packets, "queue length; more are dropped")->check(CLI::Range(16u, 1u << 20));
  CLI11_PARSE(app, argc, argv);

  std::signal(SIGTERM, [](int) { g_stop = 1; });
  std::signal(SIGINT, [](int) { g_stop = 1; });
  try {
    DelayQueue dq(queue, static_cast<std::int64_t>(delay_us * 1000), max_packets);
    std::printf("ready\n");
    std::fflush(stdout);
    dq.run();
    if (dq.overflows() > 0) std::fprintf(stderr, "ccb-delay-queue: the queue overflowed %llu times\n",
                                         static_cast<unsigned long long>(dq.overflows()));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ccb-delay-queue: queue %u: %s\n", queue, e.what());
    return 1;
  }
}
