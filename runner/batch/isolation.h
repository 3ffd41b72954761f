// Where each JVM of a batch runs. Parallel executions of a program that writes files where it
// runs (an embedded database in the working directory, a fixed name under /tmp) collide: two
// JVMs open one database and both fail, a false bug. Each JVM gets a java.io.tmpdir of its own,
// and with --workdir a working directory of its own, empty or a fresh copy of a directory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jsched::runner {

struct Workdir {
  enum Mode { Shared, Fresh, Copy } mode = Shared;
  std::string source;  // Copy: the directory each JVM gets a copy of (absolute)

  // "shared", "fresh" or "copy:DIR"; throws std::invalid_argument with a one-line reason.
  static Workdir parse(const std::string& text);
  std::string text() const;
};

// One JVM's directories, under the batch's work directory.
struct JvmDirs {
  std::string cwd;  // "" for jsched's own (Shared)
  std::string tmp;

  // Made for the JVM of run `index`; throws std::runtime_error when they cannot be.
  static JvmDirs make(const Workdir& w, const std::string& work, uint64_t index);
  std::string base() const;  // the folder that holds them
  void remove() const;
};

// `argv` (java, the agent, ...) run in `dirs`: its own java.io.tmpdir unless the command sets
// one, and, in a working directory of its own, absolute class and module paths.
std::vector<std::string> isolated_command(std::vector<std::string> argv, const JvmDirs& dirs);

}  // namespace jsched::runner
