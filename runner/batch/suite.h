// Benchmark suites: an XML file listing programs (with the bug each is known to have, or
// none) and strategies, run as a matrix by `jsched bench`. Format: docs/runner.md.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runner/batch/run_record.h"
#include "runner/reports/reports.h"

namespace jsched::runner {

struct SuiteProgram {
  std::string name, main, classpath, expect;
  std::string params;       // agent options for this program, before the strategy's (include=...)
  bool bug_output = false;  // params name an output oracle (bug-output=)
  std::string finding;      // text in the detail of the finding that counts as its bug ("" = any)
  std::vector<std::string> args, jvm_args;
  uint32_t runs = 0;  // 0: the suite's
  uint64_t timeout_ms = 0;
  size_t line = 0;  // in the suite file, for messages
};

struct SuiteStrategy {
  std::string label, name, params;  // label names the column ("pct-d2"), name is the strategy
  uint32_t runs = 0;                // runs per repetition for this strategy (0: the program's)
};

struct Suite {
  std::string file, name, java = "java";
  uint32_t runs = 100, repetitions = 1;
  uint64_t timeout_ms = 10000;
  std::vector<SuiteProgram> programs;
  std::vector<SuiteStrategy> strategies;

  // An output oracle (bug-output=REGEX) for every program that has none of its own.
  void default_bug_output(const std::string& regex);
  // HaPSet coverage in every execution's report (hapset=on) for every program whose params do
  // not say (--hapset-coverage).
  void default_hapset_coverage();

  // Throws SuiteError "FILE:LINE: reason" (also for agent options the agent would refuse).
  static Suite load(const std::string& path);
  // Each program's main class is on its class path; throws SuiteError "FILE:LINE: reason".
  void check_programs() const;
  // Every execution of the matrix, in index order: program, strategy, repetition, run.
  // `consecutive`: each cell's seeds are its run-0 seed plus the run number (for --in-jvm).
  std::vector<RunSpec> specs(uint64_t master_seed, bool consecutive = false) const;
  // How many specs() holds, and about how much memory one of them takes (the largest cell's).
  uint64_t execution_count() const;
  uint64_t spec_bytes() const;
  Expectations expectations() const;
};

class SuiteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace jsched::runner
