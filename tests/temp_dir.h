// A fresh folder for one test (mkdtemp: no name anyone could plant first), removed with
// everything in it when the test is done.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ccb::test {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/ccb-test-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string operator/(const std::string& name) const { return path + "/" + name; }
  // Writes `text` to the named file; returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(*this / name) << text;
    return *this / name;
  }

  std::string path;
};

}  // namespace ccb::test
