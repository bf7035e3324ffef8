// What ccbench reads and writes on a shared host (core/files.h), checked arithmetic
// (core/checked.h), and an error that names the descriptor limit.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>

#include "core/checked.h"
#include "core/error.h"
#include "core/files.h"
#include "temp_dir.h"

using namespace ccb;
using ccb::test::TempDir;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

size_t entries(const std::string& dir) {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

}  // namespace

TEST_CASE("an output replaces a regular file atomically and leaves nothing beside it", "[files]") {
  TempDir d;
  const std::string r = d / "r.json";
  write_file_atomically(r, "one");
  write_file_atomically(r, "two");
  CHECK(slurp(r) == "two");
  CHECK(entries(d.path) == 1);  // no temporary file, no probe left behind
  struct stat st {};
  REQUIRE(stat(r.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
}

TEST_CASE("outputs that are refused name the flag and the fix", "[files]") {
  TempDir d;
  std::ofstream(d / "victim") << "precious";
  REQUIRE(symlink((d / "victim").c_str(), (d / "link").c_str()) == 0);
  CHECK_THROWS_WITH(check_output("--json", ""), Catch::Contains("--json needs a file name"));
  CHECK_THROWS_WITH(check_output("--json", d / "link"), Catch::Contains("is a symbolic link"));
  CHECK_THROWS_WITH(check_output("--json", d.path), Catch::Contains("is a folder"));
  CHECK_THROWS_WITH(check_output("--csv", d / "no/such/r.csv"), Catch::Contains("does not exist"));
  CHECK_THROWS_WITH(check_output("--json", "/dev/fd/999"), Catch::Contains("not open"));
  CHECK(slurp(d / "victim") == "precious");
}

TEST_CASE("a device, a FIFO or the process's own stream is written in place", "[files]") {
  CHECK(check_output("--json", "/dev/null").is_stream());
  write_output(check_output("--json", "/dev/null"), "x");
  struct stat st {};
  REQUIRE(lstat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  OutputTarget out = check_output("--json", "/dev/stdout");
  CHECK(out.is_stream());
  CHECK(out.stream_fd == 1);
  TempDir d;
  REQUIRE(mkfifo((d / "fifo").c_str(), 0600) == 0);
  OutputTarget fifo = check_output("--json", d / "fifo");
  CHECK(fifo.is_stream());
  CHECK_THROWS_WITH(write_output(fifo, "x"), Catch::Contains("no process reads that FIFO"));  // never hangs
}

TEST_CASE("inputs must be regular files under their limit", "[files]") {
  TempDir d;
  std::ofstream(d / "m.json") << std::string(100, 'x');
  CHECK(read_regular_file(d / "m.json", 100, "--profile").size() == 100);
  CHECK_THROWS_WITH(read_regular_file(d / "m.json", 99, "--profile"), Catch::Contains("larger than the limit"));
  CHECK_THROWS_WITH(read_regular_file("/dev/zero", 1 << 20, "--trace"), Catch::Contains("not a regular file"));
  REQUIRE(mkfifo((d / "fifo").c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_regular_file(d / "fifo", 1 << 20, "--trace"), Catch::Contains("not a regular file"));
  CHECK_THROWS_WITH(read_regular_file(d / "none", 1 << 20, "--trace"), Catch::Contains("cannot read --trace"));
}

TEST_CASE("two names of one file are seen as one, existing or not", "[files]") {
  TempDir d;
  std::ofstream(d / "a") << "a";
  CHECK(same_file(d / "a", d.path + "/./a"));
  CHECK(same_file(d / "new", d.path + "/../" + std::filesystem::path(d.path).filename().string() + "/new"));
  CHECK_FALSE(same_file(d / "a", d / "b"));
}

TEST_CASE("checked arithmetic names what overflows", "[files][checked]") {
  CHECK(checked_mul(1ull << 31, 1ull << 32, "x") == 1ull << 63);
  CHECK_THROWS_WITH(checked_mul(1ull << 32, 1ull << 32, "hidden x vocab"), Catch::Contains("hidden x vocab overflows"));
  CHECK_THROWS_AS(checked_add(UINT64_MAX, 1, "sum"), Error);
  CHECK(checked_round_up(5, 4, "x") == 8);
  CHECK_THROWS_AS(checked_round_up(UINT64_MAX - 1, 4, "x"), Error);
}

TEST_CASE("running out of descriptors names the limit, not a timeout", "[files]") {
  errno = EMFILE;
  try {
    throw_errno("accept a peer's connection");
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("Too many open files") && Catch::Contains("ulimit -n is"));
  }
}
