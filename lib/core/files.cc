#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "core/fd.h"

namespace ccb {
namespace {

std::string quoted(const std::string& flag, const std::string& path) {
  return (flag.empty() ? "" : flag + " ") + "'" + path + "'";
}

std::string folder_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void write_all(int fd, const std::string& contents, const std::string& path) {
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_errno("cannot write '" + path + "'");
    done += static_cast<size_t>(n);
  }
}

// The process's own streams, named as bash names them: written to the descriptor it
// already has, so no link is followed and nothing is reopened or truncated.
int own_stream_fd(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    int fd = -1;
    const char* first = path.data() + prefix.size();
    auto [end, ec] = std::from_chars(first, path.data() + path.size(), fd);
    if (ec == std::errc() && end == path.data() + path.size() && fd >= 0) return fd;
  }
  return -1;
}

// A file can be created in the folder: proven by making one (mkstemp) and removing it.
void check_folder_writable(const std::string& flag, const std::string& path) {
  const std::string folder = folder_of(path);
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw_invalid(quoted(flag, path) + ": the folder '" + folder + "' does not exist: create it first");
  std::string probe = folder + "/.ccbench-probe.XXXXXX";
  int fd = ::mkostemp(probe.data(), O_CLOEXEC);
  if (fd < 0)
    throw_invalid(quoted(flag, path) + ": cannot create a file in '" + folder + "' (" + std::strerror(errno) +
                  "): pick a writable folder");
  ::close(fd);
  ::unlink(probe.c_str());
}

void write_stream(const OutputTarget& t, const std::string& contents) {
  if (t.stream_fd >= 0) return write_all(t.stream_fd, contents, t.path);
  // O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of hanging the run.
  Fd fd(::open(t.path.c_str(), O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK));
  if (!fd && errno == ENXIO) throw_errno("cannot write '" + t.path + "': no process reads that FIFO");
  if (!fd) throw_errno("cannot open '" + t.path + "'");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
    throw Error(ErrorKind::kSystem, "'" + t.path + "' is no longer a device or FIFO: not written");
  int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  write_all(fd.get(), contents, t.path);
}

void replace_file(const std::string& path, const std::string& contents) {
  std::string tmp = folder_of(path) + "/." + base_of(path) + ".XXXXXX";
  Fd fd(::mkostemp(tmp.data(), O_CLOEXEC));  // O_EXCL: a name someone planted is never used
  if (!fd) throw_errno("cannot create a file beside '" + path + "'");
  try {
    if (::fchmod(fd.get(), 0644) != 0) throw_errno("fchmod '" + tmp + "'");
    write_all(fd.get(), contents, tmp);
    if (::fsync(fd.get()) != 0) throw_errno("fsync '" + tmp + "'");
    // What was checked may have changed since: replace only a regular file, or nothing.
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      throw Error(ErrorKind::kSystem, "'" + path + "' is no longer a regular file: not replaced");
    if (::rename(tmp.c_str(), path.c_str()) != 0) throw_errno("cannot rename '" + tmp + "' to '" + path + "'");
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  Fd folder(::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (folder) ::fsync(folder.get());  // the rename itself survives a crash
}

}  // namespace

std::string read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before we can refuse it.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd) throw_invalid("cannot read " + quoted(what, path) + ": " + std::strerror(errno) + ": check the path");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    throw_invalid(quoted(what, path) + " is not a regular file (a device, FIFO or folder): give a file");
  const std::string too_big = quoted(what, path) + " is larger than the limit of " +
                              std::to_string(max_bytes >> 20) + " MiB: is it the right file?";
  if (static_cast<uint64_t>(st.st_size) > max_bytes) throw_invalid(too_big);
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_invalid("cannot read " + quoted(what, path) + ": " + std::strerror(errno));
    if (n == 0) break;
    if (text.size() + static_cast<size_t>(n) > max_bytes) throw_invalid(too_big);  // it grew meanwhile
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

OutputTarget check_output(const std::string& flag, const std::string& path) {
  if (path.empty()) throw_invalid((flag.empty() ? "an output" : flag) + " needs a file name, not an empty string");
  OutputTarget t{OutputTarget::Kind::kFile, path, own_stream_fd(path)};
  if (t.stream_fd >= 0) {
    if (::fcntl(t.stream_fd, F_GETFD) < 0) throw_invalid(quoted(flag, path) + ": that descriptor is not open");
    t.kind = OutputTarget::Kind::kStream;
    return t;
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) throw_invalid(quoted(flag, path) + ": " + std::strerror(errno));
    check_folder_writable(flag, path);
    return t;
  }
  if (S_ISLNK(st.st_mode))
    throw_invalid(quoted(flag, path) + " is a symbolic link, and ccbench follows no link it did not make: "
                  "give the path it points to");
  if (S_ISDIR(st.st_mode)) throw_invalid(quoted(flag, path) + " is a folder: give a file name inside it");
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    t.kind = OutputTarget::Kind::kStream;
    return t;
  }
  if (!S_ISREG(st.st_mode))
    throw_invalid(quoted(flag, path) + " is a block device or socket: ccbench writes regular files, "
                  "character devices and FIFOs only");
  check_folder_writable(flag, path);
  return t;
}

void write_output(const OutputTarget& target, const std::string& contents) {
  switch (target.kind) {
    case OutputTarget::Kind::kNone: return;
    case OutputTarget::Kind::kStream: return write_stream(target, contents);
    case OutputTarget::Kind::kFile: return replace_file(target.path, contents);
  }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  write_output(check_output("", path), contents);
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea);
  auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
  return !ea && !eb && ca == cb;
}

}  // namespace ccb
