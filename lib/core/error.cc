#include "core/error.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ccb {

std::string describe(const ErrorContext& ctx) {
  std::string s;
  auto add = [&s](const std::string& part) {
    if (!s.empty()) s += ' ';
    s += part;
  };
  if (ctx.rank >= 0) add("rank " + std::to_string(ctx.rank));
  if (ctx.peer >= 0) add("peer " + std::to_string(ctx.peer));
  if (!ctx.transport.empty()) add("[" + ctx.transport + "]");
  if (!ctx.device.empty()) add("on " + ctx.device);
  if (!ctx.phase.empty()) add("during " + ctx.phase);
  return s;
}

static std::string compose(const std::string& what, const ErrorContext& ctx) {
  std::string where = describe(ctx);
  std::string s = where.empty() ? what : where + ": " + what;
  if (ctx.sys_errno != 0) s += " (" + std::string(std::strerror(ctx.sys_errno)) + ")";
  if (ctx.sys_errno == EMFILE) {  // otherwise it shows up later as a mysterious timeout
    rlimit lim{};
    getrlimit(RLIMIT_NOFILE, &lim);
    s += ": ulimit -n is " + std::to_string(lim.rlim_cur) + "; raise it (ulimit -n) or run fewer ranks per host";
  }
  return s;
}

Error::Error(ErrorKind kind, std::string what, ErrorContext ctx)
    : std::runtime_error(compose(what, ctx)), kind_(kind), ctx_(std::move(ctx)),
      message_(std::move(what)) {}

void throw_errno(const std::string& what, ErrorContext ctx) {
  ctx.sys_errno = errno;
  throw Error(ErrorKind::kSystem, what, std::move(ctx));
}

void throw_invalid(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }

void print_line_to_stderr(const std::string& line) {
  std::string out = "ccbench: " + line + "\n";
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::write(2, out.data() + done, out.size() - done);
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) done += static_cast<size_t>(n);
  }
}

int report_error(const std::exception& e) {
  print_line_to_stderr(std::string("error: ") + e.what());
  const auto* err = dynamic_cast<const Error*>(&e);
  return err && err->kind() == ErrorKind::kInvalidArgument ? 2 : 1;
}

}  // namespace ccb
