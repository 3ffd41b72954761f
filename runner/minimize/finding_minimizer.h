// A finding's schedule with the fewest pre-emptions (scheduler/replay/preemption_search.h), each
// candidate run in a JVM of its own; the result replayed to check it and drawn as a timeline.
// Used by `jsched minimize` and by batches that minimize their findings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jsched::runner {

struct MinimizeRequest {
  std::vector<std::string> command;  // a finding's replay command: java -agentpath:...=OPTS ...
  std::string out;                   // directory for minimal.sched, timeline.html, work/
  uint64_t max_runs = 500;
  double max_seconds = 120;  // everything: the finding's run, the search and its checks
  bool text = false;         // also make the timeline's text form
  bool progress = false;     // say on stderr what is being minimized
};

struct MinimizeResult {
  // Empty: the minimal schedule reproduces the finding in each of its checks. Otherwise why not
  // (the command is not jsched's, its run found nothing, the minimal schedule does not
  // reproduce); `usage` when the request itself is wrong.
  std::string error;
  bool usage = false;
  bool interrupted = false;  // Ctrl-C or SIGTERM (stop_batches_on_signals) ended the search
  std::string kind;          // the finding: bug, deadlock or hang
  size_t before = 0, after = 0;
  // Why the search stopped before it ended ("": it ended): `after` is the fewest found so far.
  std::string cut_off;
  int checks = 0;  // replays of the minimal schedule (3, fewer when the budget ran short)
  uint64_t executions = 0;
  double seconds = 0;
  std::string minimal;              // DIR/minimal.sched
  std::string timeline;             // DIR/timeline.html ("": none could be drawn)
  std::string timeline_text;        // with request.text
  std::string timeline_error;       // why there is no timeline
  std::vector<std::string> replay;  // the minimal schedule's replay command
};

// Nothing is left behind in `out` when it did not exist and no minimal schedule was written.
MinimizeResult minimize_finding(const MinimizeRequest& req);

}  // namespace jsched::runner
