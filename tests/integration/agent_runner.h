// Running Java programs under the real agent, for integration tests.
#pragma once

#include <string>
#include <vector>

#include "tests/support/process.h"

namespace jsched::test {

inline std::string agent_path() {
  return JSCHED_AGENT_PATH;
}

// java -agentpath:<agent>=<options> [jvm args] -cp <cp> <main>
inline ProcessResult run_agent(const std::string& options, const std::string& cp,
                               const std::string& main,
                               const std::vector<std::string>& jvm_args = {},
                               const std::vector<std::string>& args = {}) {
  std::vector<std::string> argv = {
      java_bin(), "-agentpath:" + agent_path() + (options.empty() ? "" : "=" + options)};
  argv.insert(argv.end(), jvm_args.begin(), jvm_args.end());
  argv.insert(argv.end(), {"-cp", cp, main});
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv);
}

// Lines of `text` containing `needle`.
inline int count_lines(const std::string& text, const std::string& needle) {
  int n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text.substr(start, end - start).find(needle) != std::string::npos) ++n;
    start = end + 1;
  }
  return n;
}

}  // namespace jsched::test
