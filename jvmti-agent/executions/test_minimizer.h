// A test method's finding, made again in the test's own JVM and narrowed to the schedule with
// the fewest pre-emptions (scheduler/replay/preemption_search.h): under Surefire the agent cannot
// start JVMs of its own the way `jsched minimize` does, but it can run the test's body again.
// The failure then names a schedule file that `follow=` runs when the test runs alone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "jvmti-agent/executions/runtime.h"
#include "scheduler/core/strategy.h"

namespace jsched::agent {

struct TestFinding {
  std::string test;  // Class.method
  uint64_t seed = 0, steps = 0;
  RunOutcome outcome = RunOutcome::Bug;
  std::string detail;
};

struct MinimalTestSchedule {
  std::string error;  // empty: `file` reproduced the finding 3 times of 3
  std::string file;
  size_t before = 0, after = 0;
  uint64_t executions = 0;
  bool cut = false;  // the search ran out of executions or time before it was done
};

// One execution of the test's body under a strategy: how it ended and the finding's text.
using RunTestBody =
    std::function<std::pair<RunOutcome, std::string>(std::unique_ptr<sched::Strategy>)>;

// Bugs and deadlocks only: a hang would hold every candidate until the watchdog.
bool worth_minimizing(RunOutcome o);

// The search, within 200 executions and 20 seconds: each candidate's budget and hang window
// are what is left of them, and at most ten times the original's time (at least 1 s); the
// checks of the result get twice the original's time. The file goes
// to target/jsched/ when the JVM runs in a Maven project (a `target` folder), else to the temporary
// directory.
MinimalTestSchedule minimize_test_finding(const TestFinding& f, const RunTestBody& run);

}  // namespace jsched::agent
