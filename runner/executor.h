// Runs executions as child JVMs, J at a time, each with the agent and its own seed and report
// file. Completion callbacks run on the calling thread, in completion order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runner/run_record.h"

namespace jsched::runner {

class Executor {
 public:
  Executor(int jobs, std::string agent, std::string work_dir)
      : jobs_(jobs), agent_(std::move(agent)), work_(std::move(work_dir)) {}

  // `done` returns false to stop the batch: running JVMs are killed and not reported. Specs
  // for which `skip` (asked just before launching) returns true are not run.
  void run(const std::vector<RunSpec>& specs, const std::function<bool(RunRecord&&)>& done,
           const std::function<bool(const RunSpec&)>& skip = nullptr);

  // The full command line of one execution (for messages and tests).
  std::vector<std::string> command(const RunSpec& s, const std::string& report) const;

 private:
  int jobs_;
  std::string agent_, work_;
};

// Where the agent library is: $JSCHED_AGENT, or next to the jsched binary (build tree and
// installed layouts).
std::string find_agent(const std::string& explicit_path);

}  // namespace jsched::runner
