// Running Java programs under the real agent, for integration tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
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

// Seeds 1..seeds in one JVM, every execution run whatever the last found (iteration i is the
// single run of seed i + 1).
inline ProcessResult explore_seeds(const std::string& options, int seeds, const std::string& cp,
                                   const std::string& main,
                                   const std::vector<std::string>& args = {}) {
  return run_agent(
      (options.empty() ? "" : options + ",") + "seed=1,explore,iterations=" + std::to_string(seeds),
      cp, main, {}, args);
}

// The executions of seeds 1..seeds (explore_seeds) whose finding is a bug; any other finding or
// exit fails the test.
inline int bugs_in_one_jvm(const std::string& options, int seeds, const std::string& cp,
                           const std::string& main, const std::vector<std::string>& args = {}) {
  ProcessResult r = explore_seeds(options, seeds, cp, main, args);
  EXPECT_TRUE(r.status == 0 || r.status == 3) << options << ": " << r.err;
  const std::string summary = "seeds 1.." + std::to_string(seeds) + ": ";
  const size_t at = r.err.find(summary);
  EXPECT_NE(at, std::string::npos) << options << ": " << r.err;
  if (at == std::string::npos) return 0;
  const int found = std::atoi(r.err.c_str() + at + summary.size());  // 0 for "no finding"
  EXPECT_EQ(count_lines(r.err, "jsched: BUG ("), found) << options << ": " << r.err;
  return found;
}

// The first of seeds 1..seeds whose execution (explore_seeds) has a finding of
// `kind` as jsched prints it ("BUG", "DEADLOCK"; "" for any), or -1.
inline int first_seed_with(const std::string& options, int seeds, const std::string& kind,
                           const std::string& cp, const std::string& main) {
  ProcessResult r = explore_seeds(options, seeds, cp, main);
  for (size_t at = 0; (at = r.err.find(" (iteration ", at)) != std::string::npos; ++at) {
    const size_t line = r.err.rfind('\n', at) + 1;  // npos + 1: the first line
    if (r.err.compare(line, 8, "jsched: ") != 0) continue;
    const std::string word = r.err.substr(line + 8, at - line - 8);
    // Findings are named in capitals; a clean end with a note ("ok (iteration ...") is none.
    if (kind.empty() ? word.empty() ||
                           word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string::npos
                     : word != kind)
      continue;
    const size_t seed = r.err.find(", seed ", at);
    return seed == std::string::npos ? -1 : std::atoi(r.err.c_str() + seed + 7);
  }
  return -1;
}

}  // namespace jsched::test
