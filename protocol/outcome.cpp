#include "protocol/outcome.h"

namespace jsched {

const char* outcome_name(RunOutcome o) {
  switch (o) {
    case RunOutcome::Bug:
      return "bug";
    case RunOutcome::Deadlock:
      return "deadlock";
    case RunOutcome::Hang:
      return "hang";
    case RunOutcome::Exit:
      return "exit";
    case RunOutcome::Killed:
      return "killed";
    case RunOutcome::Error:
      return "error";
    case RunOutcome::Timeout:
      return "timeout";
    case RunOutcome::Livelock:
      return "livelock";
    default:
      return "ok";
  }
}

bool is_finding(std::string_view name) {
  for (std::string_view f : kFindingOutcomes) {
    if (name == f) return true;
  }
  return false;
}

}  // namespace jsched
