// Errors that say who failed, with whom, over what, and why.
#pragma once
#include <stdexcept>
#include <string>

namespace ccb {

// Where an error happened. -1 means "not known" or "not applicable".
struct ErrorContext {
  int rank = -1;
  int peer = -1;
  std::string transport;  // "tcp", "verbs", "bootstrap", ...
  std::string phase;      // "connect", "ring allreduce", ...
  int sys_errno = 0;
  std::string device;     // "rxe0:1 gid[1]", "eth0 10.0.0.2": the local end, when known
};

enum class ErrorKind {
  kInvalidArgument,  // the user asked for something impossible: exit 2
  kSystem,           // a syscall or library failed
  kPeerLost,         // a peer closed, reset or died
  kTimeout,          // a deadline passed
  kProtocol,         // a peer sent something we do not understand
  kAborted,          // someone called abort()
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string what, ErrorContext ctx = {});
  ErrorKind kind() const { return kind_; }
  const ErrorContext& context() const { return ctx_; }
  // The bare message without the context prefix.
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  ErrorContext ctx_;
  std::string message_;
};

std::string describe(const ErrorContext& ctx);

// Throws kSystem with strerror(errno) appended.
[[noreturn]] void throw_errno(const std::string& what, ErrorContext ctx = {});
[[noreturn]] void throw_invalid(const std::string& what);

// Writes "ccbench: <line>\n" to stderr in one write(2), so that lines from ranks sharing
// a terminal or pipe never interleave mid-line.
void print_line_to_stderr(const std::string& line);
// Prints "ccbench: error: <what>" as one line and returns the exit status it maps to:
// 2 for bad input (flags, sizes, environment), 1 for everything else.
int report_error(const std::exception& e);

}  // namespace ccb
