// Runs a command and captures its exit status, stdout and stderr (tests that drive the JVM).
#pragma once

#include <string>
#include <vector>

namespace jsched::test {

struct ProcessResult {
  int status = -1;  // exit code, or 128 + signal
  std::string out, err;
};

// argv[0] is looked up in PATH. No shell is involved.
ProcessResult run(const std::vector<std::string>& argv, const std::string& stdin_text = "");

// `java` of the JDK the build used.
std::string java_bin();

// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace jsched::test
