// How an execution ends, as the agent reports it and the runner reads it (docs/agent.md, "Exit
// status and reports"). For findings the value is the agent's exit status.
// Exit: the program ended the JVM with System.exit(n != 0) or Runtime.halt; Killed: a signal
// (SIGTERM, SIGINT, SIGHUP) did; both report the JVM's real status. Error: jsched could not
// run the program faithfully (a class it was asked to instrument and could not, or a failure
// its own rewriting caused): never the program's bug.
#pragma once

#include <string_view>

namespace jsched {

// Timeout: the execution still made steps when its time budget ran out (slow, not hung): no
// finding, no verdict. Livelock: threads went on turning on timed waits with nothing changing
// (Model::turning_on_time): a finding.
enum class RunOutcome {
  Ok = 0,
  Exit = 1,
  Error = 2,
  Bug = 3,
  Deadlock = 4,
  Hang = 5,
  Killed = 6,
  Timeout = 7,
  Livelock = 8
};

// As reports name it: "ok", "error", "bug", "deadlock", "hang", "exit", "killed", "timeout",
// "livelock".
const char* outcome_name(RunOutcome o);

// The outcomes that are findings (a bug of the program), by the names reports use.
inline constexpr std::string_view kFindingOutcomes[] = {"bug", "deadlock", "hang", "livelock"};
bool is_finding(std::string_view outcome_name);

// A hang or a livelock: ended by the watchdog, where real time said, not at a step of the
// program's own.
inline bool ended_by_watchdog(RunOutcome o) {
  return o == RunOutcome::Hang || o == RunOutcome::Livelock;
}

}  // namespace jsched
