#include "transport/debug_trace.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

#include "core/error.h"

namespace ccb {

namespace {

struct TraceSink {
  TraceSink() {
    const char* v = std::getenv("CCB_DEBUG");
    on = v && *v && std::string(v) != "0";
    if (on && std::string(v) != "1") path = v;
  }
  bool on = false;
  std::string path;  // "" for stderr
  int fd = -1;       // opened at the first line, when the rank is known
  std::mutex mu;
};

TraceSink& sink() {
  static TraceSink s;
  return s;
}

class TracedRequest final : public Request {
 public:
  TracedRequest(RequestPtr inner, int rank) : inner_(std::move(inner)), rank_(rank) {}
  bool test() override {
    try {
      return inner_->test();
    } catch (const std::exception& e) {
      debug_trace(rank_, "failed: " + inner_->describe() + ": " + e.what());
      throw;
    }
  }
  size_t bytes() const override { return inner_->bytes(); }
  std::string describe() const override { return inner_->describe(); }

 private:
  RequestPtr inner_;
  int rank_;
};

class TracedConnection final : public Connection {
 public:
  TracedConnection(ConnectionPtr inner, int rank) : inner_(std::move(inner)), rank_(rank) {}
  int peer() const override { return inner_->peer(); }
  RequestPtr isend(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override {
    return post("send to", inner_->isend(mr, offset, bytes, tag), bytes, tag);
  }
  RequestPtr irecv(const MemoryRegion& mr, size_t offset, size_t bytes, uint32_t tag) override {
    return post("recv from", inner_->irecv(mr, offset, bytes, tag), bytes, tag);
  }

 private:
  RequestPtr post(const char* what, RequestPtr r, size_t bytes, uint32_t tag) {
    debug_trace(rank_, std::string("post ") + what + " rank " + std::to_string(peer()) + ", tag " + std::to_string(tag) +
                           ", " + std::to_string(bytes) + " B");
    return std::make_unique<TracedRequest>(std::move(r), rank_);
  }
  ConnectionPtr inner_;
  int rank_;
};

}  // namespace

bool debug_trace_on() { return sink().on; }

void debug_trace(int rank, const std::string& line) {
  TraceSink& s = sink();
  if (!s.on) return;
  const std::string text = "ccbench debug: rank " + std::to_string(rank) + ": " + line + "\n";
  std::lock_guard lock(s.mu);
  if (s.fd < 0 && !s.path.empty()) {
    const std::string file = s.path + "." + std::to_string(rank);
    s.fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (s.fd < 0) {
      print_line_to_stderr("warning: CCB_DEBUG: cannot create " + file + " (it exists, or its folder is not writable); "
                           "tracing to stderr");
      s.path.clear();
    }
  }
  const int fd = s.fd >= 0 ? s.fd : STDERR_FILENO;
  [[maybe_unused]] ssize_t n = ::write(fd, text.data(), text.size());  // a trace line is best effort
}

ConnectionPtr traced_connection(ConnectionPtr c, int rank, const std::string& transport) {
  debug_trace(rank, "connected to rank " + std::to_string(c->peer()) + " over " + transport);
  return std::make_unique<TracedConnection>(std::move(c), rank);
}

}  // namespace ccb
