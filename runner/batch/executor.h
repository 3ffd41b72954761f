// Runs executions as child JVMs, J at a time, each with the agent and its own seed and report
// file. Completion callbacks run on the calling thread, in completion order.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runner/batch/isolation.h"
#include "runner/batch/run_record.h"

namespace jsched::runner {

class Executor {
 public:
  // `in_jvm` > 1: up to that many consecutive executions of the same program and strategy,
  // with consecutive seeds, run in one JVM (the agent's iterations=N); one JVM each otherwise.
  Executor(int jobs, std::string agent, std::string work_dir, uint32_t in_jvm = 1)
      : jobs_(jobs), in_jvm_(in_jvm), agent_(std::move(agent)), work_(std::move(work_dir)) {}

  // A JVM of several executions stops at its first finding when every finding counts (no
  // target): the executions it then does not run are not recorded, as if skipped (--until-bug).
  void stop_at_first_finding(bool on) { stop_at_finding_ = on; }

  // Where each JVM runs (runner/batch/isolation.h): its own java.io.tmpdir always.
  void isolate(const Workdir& w) { workdir_ = w; }

  // The results directory, whose files the runner writes while JVMs run: no collision of the
  // JVMs' (SharedWrites). By default the work directory's parent.
  void results_in(std::string dir) { results_ = std::move(dir); }

  // Agent options for a JVM about to run `group`, from what earlier JVMs found (a HaPSet plan).
  using BeforeLaunch = std::function<std::string(const std::vector<RunSpec>& group)>;

  // `done` returns false to stop the batch: running JVMs are killed and not reported. Specs
  // for which `skip` (asked just before launching) returns true are not run.
  //
  // strategy=hapset learns from the executions before: its runs always share JVMs (in_jvm, or
  // kHapsetPerJvm), and a JVM of a (program, strategy, repetition) starts only after the one
  // before it has been reported, with the options `before` gives. So what each execution
  // learned from does not depend on --jobs.
  void run(const std::vector<RunSpec>& specs, const std::function<bool(RunRecord&&)>& done,
           const std::function<bool(const RunSpec&)>& skip = nullptr,
           const BeforeLaunch& before = nullptr);

  // The full command line of one execution, or of `iterations` of them from `s` on (for
  // messages and tests); `extra`: more agent options.
  std::vector<std::string> command(const RunSpec& s, const std::string& report,
                                   size_t iterations = 1, const std::string& extra = "") const;

 private:
  int jobs_;
  uint32_t in_jvm_;
  bool stop_at_finding_ = false;
  std::string agent_, work_, results_;
  Workdir workdir_;
};

// Starts `argv` (a JVM) with stdin from /dev/null, stdout and stderr into `log`, and the
// default action of the signals jsched itself handles or ignores, in working directory `cwd`
// ("": jsched's). Throws std::runtime_error.
pid_t spawn_jvm(std::vector<std::string> argv, const std::string& log, const std::string& cwd = "");

// Whether runs of this strategy learn from the runs before them (HaPSet).
bool learns(const RunSpec& s);
inline constexpr uint32_t kHapsetPerJvm = 100;  // without --in-jvm

// Where the agent library is: the explicit path, $JSCHED_AGENT, or found from the jsched
// binary's own place (installed: ../lib/jsched/; build tree: ../jvmti-agent/). Throws
// std::runtime_error saying what was tried.
std::string find_agent(const std::string& explicit_path);

}  // namespace jsched::runner
