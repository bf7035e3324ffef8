#include "net/host_key.h"

#include <unistd.h>

#include <fstream>

namespace ccb {
namespace {

std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

std::string host_key() {
  char ns[64] = {};
  ssize_t n = readlink("/proc/self/ns/net", ns, sizeof ns - 1);
  std::string key = host_name() + "/" + first_line("/proc/sys/kernel/random/boot_id").substr(0, 8) + "/" +
                    (n > 0 ? std::string(ns, static_cast<size_t>(n)) : std::string("net"));
  for (char& c : key)
    if (c == ' ' || c == '\t' || c == '\n') c = '_';
  return key;
}

std::string machine_of_key(const std::string& key) {
  const size_t first = key.find('/');
  const size_t second = first == std::string::npos ? std::string::npos : key.find('/', first + 1);
  if (second == std::string::npos) return key;
  return key.substr(first + 1, second - first - 1);
}

}  // namespace ccb
