// A batch's findings minimized (runner/minimize/finding_minimizer): each distinct bug or deadlock
// of each program once (not hangs: each candidate would run until the watchdog), within a time
// budget for the whole batch, into DIR/minimal/<n>/, listed in DIR/minimized.jsonl so that the
// reports (and a resumed batch) find them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runner/batch/run_record.h"

namespace jsched::runner {

struct MinimizedFinding {
  std::string program, identity;  // which finding (finding_identity), the key
  std::string replay;             // the run's replay command that was minimized
  std::string kind;
  size_t before = 0, after = 0;
  std::string cut_off;  // why the search stopped short ("": it ended)
  uint64_t executions = 0;
  double seconds = 0;
  std::string minimal_replay;  // "" when it failed
  std::string timeline;        // relative to the results directory, "" for none
  std::string error;           // why it failed, or "" when the minimal schedule reproduces
};

// Minimizes the findings of `records` not minimized yet, spending at most `budget_seconds`
// (each finding at most a minute and 200 executions), with progress on stderr. Throws
// WriteError when minimized.jsonl cannot be written, Interrupted on Ctrl-C.
void minimize_findings(const std::string& dir, const std::vector<RunRecord>& records,
                       double budget_seconds);

// The key of a record's finding among the minimized ones.
std::string minimized_key(const RunRecord& r);

// DIR/minimized.jsonl by minimized_key (none: empty).
std::map<std::string, MinimizedFinding> read_minimized(const std::string& dir);

}  // namespace jsched::runner
