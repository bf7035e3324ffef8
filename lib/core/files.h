// The files ccbench reads and writes. It runs as root on shared hosts, so:
//  - an input (a model, a trace) must be a regular file under a stated size: /dev/zero
//    or a FIFO is refused, never read until memory runs out;
//  - an output never follows a link that ccbench did not make and never replaces
//    anything but a regular file. A regular file, or a new one, is replaced atomically:
//    written to a fresh mkstemp file in the same folder, fsynced, then renamed over it.
//    A character device or a FIFO is written in place, as tee does, and so are the
//    process's own streams (/dev/stdout, /dev/stderr, /dev/fd/N): /dev/null stays a
//    device. A stream cannot be rewritten, so callers write it once, at the end.
#pragma once
#include <cstdint>
#include <string>

namespace ccb {

// A whole regular file of at most max_bytes. Throws kInvalidArgument naming `what`
// (the flag, e.g. "--trace"), the path and the fix.
std::string read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what);

// Where an output goes, judged before anything is measured.
struct OutputTarget {
  enum class Kind { kNone, kFile, kStream };
  Kind kind = Kind::kNone;
  std::string path;
  int stream_fd = -1;  // one of the process's own streams: written to this descriptor
  bool is_stream() const { return kind == Kind::kStream; }
};

// Throws kInvalidArgument naming the flag, the path and the fix for: an empty name, a
// folder, a symbolic link, a block device or socket, a folder that does not exist or
// in which no file can be created. Nothing is left behind by the check.
OutputTarget check_output(const std::string& flag, const std::string& path);

// Writes the whole contents as the target's kind says (see above). Throws kSystem.
void write_output(const OutputTarget& target, const std::string& contents);

// check_output, then write_output: for callers that write once.
void write_file_atomically(const std::string& path, const std::string& contents);

// True when the two paths name the same file, or will once created (links and `..`
// resolved as far as the paths exist).
bool same_file(const std::string& a, const std::string& b);

}  // namespace ccb
