// Two JVMs of a batch that write one file in the shared working directory at the same time
// (an embedded database, a log file of a fixed name) disturb each other: their failures are
// the batch's doing, not the program's. While JVMs run, the files each holds open for writing
// under the working directory are looked at now and then (/proc/PID/fd), and the directory is
// scanned for files written since the batch began (a JVM that fails at once holds its file
// too briefly to be seen): the first such file is named in a warning that suggests --workdir.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace jsched::runner {

class SharedWrites {
 public:
  // Files under `root` (jsched's working directory), except those under `ignored` (the
  // results directory, where the runner has the JVMs write).
  SharedWrites(std::string root, std::string ignored);

  // Looks at the files JVM `pid` (of run `run`) holds open for writing; warns (once) when
  // another running JVM holds one of them too.
  void look(pid_t pid, uint64_t run);
  // JVM `pid` has ended.
  void ended(pid_t pid);
  // With JVMs that ran side by side: warns (once) about a file under the working directory
  // written since the batch began. Walks at most kMaxScan entries, at most once in
  // kScanEverySeconds, and stops at Ctrl-C (a large working directory, a cold cache).
  void scan();

 private:
  static constexpr int kMaxScan = 5000;
  static constexpr int kScanEverySeconds = 2;
  std::chrono::steady_clock::time_point last_scan_{};
  void warn(const std::string& what);

  std::string root_, ignored_;
  std::filesystem::file_time_type start_;
  std::map<std::string, std::map<pid_t, uint64_t>> writers_;  // path -> JVM -> its run
  std::map<pid_t, std::set<std::string>> files_;
  bool warned_ = false;
};

}  // namespace jsched::runner
